#ifndef LUMATRACE_CZLIB_SHIM_H
#define LUMATRACE_CZLIB_SHIM_H
// Only crc32() is used: the checksum on every record header of a .luma file.
#include <zlib.h>
#endif
