// Everything is in include/CIntrinsics.h (inline); a C target needs one source file.
#include "CIntrinsics.h"
