// Only the reentrant API: every call takes an explicit GEOSContextHandle_t.
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
