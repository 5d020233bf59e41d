#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
// The system zlib (zlib1g-dev), for gzip response bodies.
#include <zlib.h>
#endif
