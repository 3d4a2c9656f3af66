"""The package as a package index would serve it: the source package (sdist) carries the C decoder's
sources, the same bytes as the Swift reader's `Sources/CResidualKernels`, so what is built from it
decodes with the compiled kernels; a build that cannot compile them says why, and so does the
package, once, when it opens a recording with numpy instead."""
import os
import subprocess
import sys
import tarfile

import pytest

from conftest import RECORDINGS, REPO

PACKAGE = REPO / "python"
KERNELS = REPO / "Sources" / "CResidualKernels"
#: The copy setup.py makes beside itself, which the sdist carries.
COPY = PACKAGE / "CResidualKernels"


def kernel_files(root):
    """Every C source and header under `root`, by path relative to it, with its bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.suffix in (".c", ".h")}


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    """The source package, built as `python -m build --sdist` builds it (setuptools' PEP 517 hook),
    and unpacked: (the .tar.gz, the unpacked folder)."""
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta as b; print(b.build_sdist(sys.argv[1]))",
                            str(out)], cwd=PACKAGE, check=True, capture_output=True, text=True).stdout.split()[-1]
    archive = out / built
    with tarfile.open(archive) as tar:
        tar.extractall(out / "unpacked", filter="data")
    (folder,) = (out / "unpacked").iterdir()
    return archive, folder


def built_from(folder, tmp_path, cc=None):
    """`setup.py build` of an unpacked sdist (what a wheel packs) into tmp_path/site; its output."""
    env = dict(os.environ, **({"CC": cc} if cc else {}))
    run = subprocess.run([sys.executable, "setup.py", "build", "--build-base", str(tmp_path / "build"), "--build-lib", str(tmp_path / "site")],
                         cwd=folder, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout + run.stderr


OPEN_TWICE = """
import warnings, lumatrace
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    decoders = [lumatrace.open(path, decoder=asked).decoder for path, asked in ((PATH, None), (PATH, None), (PATH, "numpy"))]
print(lumatrace.__file__)
print(decoders)
print(len(caught))
for w in caught:
    print(w.category.__name__, w.filename.endswith("<string>"), str(w.message))
"""


def opened_twice(site):
    """A fresh process that imports the package from `site`, opens a recording twice by default
    and once with `decoder="numpy"`: (the module's file, the decoders, the warnings' count, their lines)."""
    code = OPEN_TWICE.replace("PATH", repr(str(RECORDINGS / "toss-real.luma")))
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(site), LUMATRACE_DECODER=""),
                         check=True, capture_output=True, text=True).stdout.splitlines()
    return out[0], out[1], int(out[2]), out[3:]


def test_the_copy_of_the_kernels_beside_setup_py_is_the_swift_readers_own():
    """setup.py refreshes the copy on every build from the checkout; a copy that drifted means the
    installed decoder is not the checkout's (`pip install -e python` or scripts/install-dependencies
    builds it again)."""
    assert COPY.is_dir(), f"{COPY} is missing: setup.py makes it (pip install -e python)"
    assert kernel_files(COPY) == kernel_files(KERNELS), f"{COPY} differs from {KERNELS}: reinstall with pip install -e python"


def test_the_sdist_carries_the_c_decoders_sources_byte_for_byte(sdist):
    archive, folder = sdist
    assert set(kernel_files(KERNELS)) == {"residual_kernels.c", "block_prediction.c", "include/residual_kernels.h"}
    assert kernel_files(folder / "CResidualKernels") == kernel_files(KERNELS)
    assert (folder / "src" / "lumatrace" / "_kernels.c").read_bytes() == (PACKAGE / "src" / "lumatrace" / "_kernels.c").read_bytes()
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert not [n for n in names if n.endswith((".so", ".pyc", "_kernels_unbuilt.txt"))], "nothing built travels in the sdist"
    assert all(n.split("/")[0] == folder.name and ".." not in n.split("/") for n in names), "only what lies in python/"
    assert not (PACKAGE / "Sources").exists(), "building the sdist wrote nothing outside it"


def test_a_package_built_from_the_sdist_decodes_with_the_compiled_kernels_and_says_nothing(sdist, tmp_path):
    """Wherever pip unpacks it: beside another project's `Sources/CResidualKernels` too (the sdist
    builds its own copy, never a checkout's it happens to lie next to)."""
    decoy = sdist[1].parent / "Sources" / "CResidualKernels" / "include"
    decoy.mkdir(parents=True, exist_ok=True)
    (decoy / "residual_kernels.h").write_text("#error not this one\n")
    (sdist[1].parent / "Package.swift").write_text("// another package\n")
    built_from(sdist[1], tmp_path)
    assert kernel_files(sdist[1] / "CResidualKernels") == kernel_files(KERNELS)
    module, decoders, warned, lines = opened_twice(tmp_path / "site")
    assert module.startswith(str(tmp_path / "site")), "the package built from the sdist is the one imported"
    assert decoders == "['c', 'c', 'numpy']"
    assert warned == 0, lines


def test_without_a_c_compiler_the_build_says_why_and_the_package_warns_once_that_it_decodes_with_numpy(sdist, tmp_path):
    said = built_from(sdist[1], tmp_path, cc="/nonexistent/cc")
    assert "lumatrace: the C decoder (lumatrace._kernels) was not built" in said and "/nonexistent/cc" in said
    assert "gcc python3-dev" in said, "the build says how to get the compiled decoder"
    module, decoders, warned, lines = opened_twice(tmp_path / "site")
    assert module.startswith(str(tmp_path / "site"))
    assert decoders == "['numpy', 'numpy', 'numpy']"
    assert warned == 1, "once a process, whatever the recordings opened"
    (line,) = lines
    assert line.startswith("RuntimeWarning True "), "a RuntimeWarning pointing at the caller's lumatrace.open"
    assert "decodes frames with numpy" in line and "/nonexistent/cc" in line and "gcc python3-dev" in line
    assert "decoder='numpy'" in line, "the warning says how to choose numpy and silence it"


def test_the_package_reads_lumatraces_version_from_the_one_place_it_is_written(sdist):
    """`scripts/release` sets the version in LumatraceVersion.swift only: the package's metadata,
    its `__version__` and the sdist's PKG-INFO all come from there."""
    import re
    import lumatrace
    swift = (REPO / "Sources" / "LumaEngine" / "LumatraceVersion.swift").read_text()
    (written,) = re.findall(r'public static let engine = "([0-9]+\.[0-9]+\.[0-9]+)"', swift)
    assert lumatrace.__version__ == written
    pyproject = (PACKAGE / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and not re.search(r"^version\s*=", pyproject, re.MULTILINE)
    assert re.search(r"^Version: (\S+)$", (sdist[1] / "PKG-INFO").read_text(), re.MULTILINE).group(1) == written
    assert f'"{written}"' not in (PACKAGE / "src" / "lumatrace" / "__init__.py").read_text()
