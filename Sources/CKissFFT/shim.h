#ifndef LUMATRACE_CKISSFFT_SHIM_H
#define LUMATRACE_CKISSFFT_SHIM_H
// KissFFT (BSD), Debian's libkissfft-dev, single-precision build (pkg-config kissfft-float).
#ifndef kiss_fft_scalar
#define kiss_fft_scalar float
#endif
#include <kissfft/kiss_fft.h>
#include <kissfft/kiss_fftnd.h>
#endif
