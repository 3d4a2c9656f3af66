#ifndef LUMATRACE_CZSTD_SHIM_H
#define LUMATRACE_CZSTD_SHIM_H
// Advanced (experimental) parameters are not used: only the stable API of libzstd ≥ 1.4.
#include <zstd.h>
#include <zstd_errors.h>
#endif
