// Everything is in include/CPrefetch.h (inline); a C target needs one source file.
#include "CPrefetch.h"
