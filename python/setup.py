"""The compiled decode path, `lumatrace._kernels`: the Swift reader's own C kernels
(Sources/CResidualKernels) with a small binding (src/lumatrace/_kernels.c), built at `pip install`.
Everything else is declared in pyproject.toml.

The kernels live outside this folder, so every build from the checkout first copies them beside
this file (`CResidualKernels/`, not versioned): the sdist carries that copy (MANIFEST.in), and a build
from the sdist, which has no checkout around it, compiles it. tests/test_packaging.py checks that the
copy and the sdist's are the Swift reader's bytes.

Optional, as zstandard's C backend is: without a C compiler (or Python's headers: Debian's
python3-dev) the build goes on without it, says why (`pip install -v` shows it), and leaves the
reason beside the package (`lumatrace/_kernels_unbuilt.txt`) for `lumatrace.open` to warn with
once: the package then decodes with numpy (`lumatrace._payload`), about 6 times slower.
"""
import filecmp
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

HERE = Path(__file__).resolve().parent
#: The Swift package's kernels, when this is a checkout.
CHECKOUT_KERNELS = HERE.parent / "Sources" / "CResidualKernels"
#: The copy the sdist carries (relative: setuptools wants relative source paths).
KERNELS = "CResidualKernels"
#: Where a build that could not compile the kernels leaves its reason, beside the package's modules.
UNBUILT_NOTE = "_kernels_unbuilt.txt"
#: What stops the kernels from compiling (no compiler, a compile or link error, no headers).
BUILD_ERRORS = (CCompilerError, BaseError, OSError)


def in_checkout() -> bool:
    """Whether this is python/ of a Lumatrace checkout, not an unpacked sdist (which has PKG-INFO,
    and lies wherever pip unpacks it: beside anyone's `Sources`)."""
    return (not (HERE / "PKG-INFO").exists() and (HERE.parent / "Package.swift").is_file()
            and (CHECKOUT_KERNELS / "include" / "residual_kernels.h").is_file())


def copy_kernels() -> None:
    """Makes `CResidualKernels/` beside this file the checkout's kernels (their .c and .h files,
    nothing else); outside a checkout (an sdist) leaves the copy it carries as it is."""
    if not in_checkout():
        return
    copy = HERE / KERNELS
    wanted = {p.relative_to(CHECKOUT_KERNELS) for p in CHECKOUT_KERNELS.rglob("*") if p.suffix in (".c", ".h")}
    for stale in [p for p in copy.rglob("*") if p.is_file() and p.relative_to(copy) not in wanted] if copy.is_dir() else []:
        stale.unlink()
    for relative in wanted:
        source, target = CHECKOUT_KERNELS / relative, copy / relative
        if not (target.is_file() and filecmp.cmp(source, target, shallow=False)):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)


#: The one place Lumatrace's version is written (scripts/release sets it); the package reads it.
VERSION_SOURCE = HERE.parent / "Sources" / "LumaEngine" / "LumatraceVersion.swift"


def package_version() -> str:
    """Lumatrace's version: from `LumatraceVersion.swift` in a checkout, from PKG-INFO in an sdist
    (which recorded it when it was made from a checkout)."""
    import re
    if (HERE / "PKG-INFO").exists():
        found = re.search(r"^Version: (\S+)$", (HERE / "PKG-INFO").read_text(), re.MULTILINE)
    else:
        found = re.search(r'public static let engine = "([0-9]+\.[0-9]+\.[0-9]+)"', VERSION_SOURCE.read_text())
    if found is None:
        sys.exit(f"lumatrace: no version found in {HERE / 'PKG-INFO' if (HERE / 'PKG-INFO').exists() else VERSION_SOURCE}")
    return found.group(1)


def missing_headers() -> str:
    """Why Python's headers stop a build, or "" when Python.h is there."""
    include = sysconfig.get_paths()["include"]
    return "" if (Path(include) / "Python.h").is_file() else f"; Python's headers are missing (no Python.h in {include})"


class OptionalKernels(build_ext):
    """build_ext that, when the kernels cannot compile, says why and leaves the reason beside the
    package (`UNBUILT_NOTE`), instead of failing the install."""

    def build_extension(self, ext):
        note = Path(self.get_ext_fullpath(ext.name)).parent / UNBUILT_NOTE
        try:
            if not (HERE / KERNELS).is_dir():
                raise FileNotFoundError(f"the kernels' sources are missing: neither {CHECKOUT_KERNELS} nor {HERE / KERNELS}")
            super().build_extension(ext)
        except BUILD_ERRORS as e:
            reason = f"{str(e).rstrip('.')}{missing_headers()}"
            note.parent.mkdir(parents=True, exist_ok=True)
            note.write_text(reason + "\n")
            print(f"WARNING: lumatrace: the C decoder (lumatrace._kernels) was not built: {reason}.\n"
                  f"WARNING: lumatrace: frames will be decoded with numpy, about 6 times slower. For the C decoder, "
                  f"install a C compiler and Python's headers (Debian: apt-get install gcc python3-dev), then reinstall.",
                  file=sys.stderr)
        else:
            note.unlink(missing_ok=True)


copy_kernels()
setup(
    version=package_version(),
    cmdclass={"build_ext": OptionalKernels},
    ext_modules=[Extension(
        "lumatrace._kernels",
        sources=["src/lumatrace/_kernels.c", f"{KERNELS}/residual_kernels.c", f"{KERNELS}/block_prediction.c"],
        include_dirs=[f"{KERNELS}/include"],
        depends=[f"{KERNELS}/include/residual_kernels.h"],
        # As SwiftPM builds them with -O (the kernels pick SSSE3/AVX2 at run time themselves).
        extra_compile_args=["-O2", "-std=c11"],
        optional=True,
    )],
)
