"""The compiled decode path, `lumatrace._kernels`: the Swift reader's own C kernels
(../Sources/CResidualKernels) with a small binding (src/lumatrace/_kernels.c), built at
`pip install`. Optional, as zstandard's C backend is: without a C compiler (or Python's headers:
Debian's python3-dev) the build skips it and the package decodes with numpy (`lumatrace._payload`).
Everything else is declared in pyproject.toml."""
from setuptools import Extension, setup

KERNELS = "../Sources/CResidualKernels"

setup(ext_modules=[Extension(
    "lumatrace._kernels",
    sources=["src/lumatrace/_kernels.c", f"{KERNELS}/residual_kernels.c", f"{KERNELS}/block_prediction.c"],
    include_dirs=[f"{KERNELS}/include"],
    # As SwiftPM builds them with -O (the kernels pick SSSE3/AVX2 at run time themselves).
    extra_compile_args=["-O2", "-std=c11"],
    optional=True,
)])
