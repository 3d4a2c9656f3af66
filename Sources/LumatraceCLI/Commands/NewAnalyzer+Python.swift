import Foundation

/// The files of a new analyzer in Python: a script the `external` analyzer runs, written with
/// `lumatrace.analyzer` (python/ in the checkout), its pytest tests and a README. The example is
/// the Swift template's brightness-change detector, so the two languages teach the same thing.
struct PythonAnalyzerTemplate {
    let typeName: String
    let checkout: String

    /// `Glare` → `glare`, `HeadTracker` → `head_tracker`: the script's module name.
    var moduleName: String {
        var out = ""
        for (i, c) in typeName.enumerated() {
            if c.isUppercase, i > 0 { out += "_" }
            out += c.lowercased()
        }
        return out
    }

    /// Why `typeName` would make code that does not run, or `nil`: a Python constant (`None`,
    /// `True`, `False`, which pass as capitalised names), a name the script or its tests import
    /// (a class `Event` would hide `lumatrace.analyzer.Event`), or a module name that would hide a
    /// module they import, directly or not (`Numpy` writes numpy.py, which `import numpy` would
    /// then find; `Enum` writes enum.py, which `re` imports).
    var clash: String? {
        if ["None", "True", "False", "NotImplemented", "Ellipsis"].contains(typeName) { return "it is a Python constant" }
        if Self.builtinClasses.contains(typeName) { return "it would hide Python's built-in \(typeName), which the script and Python itself use" }
        if Self.importedNames.contains(typeName) { return "the script imports \(typeName) from lumatrace.analyzer" }
        if Self.importedModules.contains(moduleName) {
            return "its script, \(moduleName).py, would hide the module \(moduleName) that Python imports to run the analyzer or its tests"
        }
        return nil
    }

    /// Python's built-in classes (its exceptions and warnings, as of Python 3.11: `dir(builtins)`'s
    /// capitalised names but the constants): a script class of one of these names hides it.
    static let builtinClasses: Set<String> = [
        "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
        "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
        "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
        "DeprecationWarning", "EOFError", "EncodingWarning", "EnvironmentError", "Exception",
        "ExceptionGroup", "FileExistsError", "FileNotFoundError", "FloatingPointError", "FutureWarning",
        "GeneratorExit", "IOError", "ImportError", "ImportWarning", "IndentationError", "IndexError",
        "InterruptedError", "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError",
        "MemoryError", "ModuleNotFoundError", "NameError", "NotADirectoryError", "NotImplementedError",
        "OSError", "OverflowError", "PendingDeprecationWarning", "PermissionError", "ProcessLookupError",
        "RecursionError", "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning",
        "StopAsyncIteration", "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit",
        "TabError", "TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError",
        "UnicodeEncodeError", "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning",
        "ValueError", "Warning", "ZeroDivisionError",
    ]
    /// What the script and its tests import by name (see `analyzer` and `tests`).
    static let importedNames: Set<String> = ["Analyzer", "Event", "OptionsRefused"]
    /// Every module Python imports to run the script (as the external analyzer runs it) and its
    /// tests (under pytest), directly or not: a script named like one (`Enum` writes enum.py) is
    /// imported in its place, by the tests' `from enum import Enum` or by a module deep in
    /// Python's own start-up (re imports enum), and the script breaks with a circular import.
    /// Read from the interpreter: the top-level names of `sys.modules` after both runs (Python
    /// 3.11, numpy, pytest), those a type name can make (`SreCompile` → sre_compile).
    /// `NewAnalyzerNamesTests` runs both with the project's Python and checks that every module
    /// they import is here; add the ones it names when Python or a package changes.
    static let importedModules: Set<String> = [
        "abc", "argparse", "array", "ast", "atexit", "base64", "bdb", "binascii", "bisect", "builtins", "bz2", "calendar", "cmd",
        "code", "codecs", "codeop", "collections", "contextlib", "contextvars", "copy", "copyreg", "csv", "ctypes",
        "dataclasses", "datetime", "decimal", "difflib", "dis", "email", "encodings", "enum", "errno", "faulthandler", "fcntl",
        "fnmatch", "fractions", "functools", "gc", "genericpath", "gettext", "glob", "hashlib", "heapq", "html", "http",
        "importlib", "iniconfig", "inspect", "io", "ipaddress", "itertools", "json", "keyword", "linecache", "locale", "logging",
        "lumatrace", "lzma", "marshal", "math", "ntpath", "numbers", "numpy", "opcode", "operator", "os", "pathlib", "pdb",
        "pickle", "platform", "pluggy", "posix", "posixpath", "pprint", "py", "pyexpat", "pygments", "pytest", "quopri",
        "random", "re", "readline", "reprlib", "runpy", "select", "selectors", "shlex", "shutil", "signal", "site", "socket",
        "ssl", "stat", "string", "struct", "subprocess", "sys", "tempfile", "test", "textwrap", "threading", "time", "token",
        "tokenize", "traceback", "types", "typing", "unicodedata", "unittest", "urllib", "uuid", "warnings", "weakref", "xml",
        "zipfile", "zipimport", "zlib", "zstandard",
    ]

    /// The checkout's virtual environment, which has numpy and the `lumatrace` package: what
    /// `new-analyzer` suggests running the tests with on this machine.
    var python: String { checkout + "/.venv/bin/python" }

    /// The interpreter the generated files name: `python3`, never a path of this machine, so the
    /// folder works wherever it is copied (any python3 with numpy and the `lumatrace` package).
    let interpreter = "python3"

    var files: [(String, String)] {
        [("\(moduleName).py", analyzer), ("test_\(moduleName).py", tests), ("README.md", readme),
         (".gitignore", "__pycache__/\n.pytest_cache/\n")]
    }

    var analyzer: String {
        """
        #!/usr/bin/env python3
        \"\"\"\(typeName): reports sudden changes of brightness (a light switched on, a cloud, a camera's
        exposure jump): a `brightness.change` event whenever the mean luma of the region of interest
        moves by more than `threshold` grey levels from the previous analyzed frame.

        The example of `lumatrace new-analyzer --language python`: replace it with your own detector.
        Lumatrace runs it through its `external` analyzer (`lumatrace.analyzer` speaks the protocol):

            lumatrace replay clip.luma --analyzer external \\
              --set external.command="\(interpreter) \(moduleName).py" \\
              --set external.options='{"threshold":8}'

        The rules: the same frames and options give the same events (no clocks, no unseeded
        randomness: derive ids from `self.stream.identity`); coordinates are normalized with a
        lower-left origin (`self.stream.normalized_box`); every kind emitted is declared in `events`.
        \"\"\"
        try:
            from lumatrace.analyzer import Analyzer, Event, run
        except ImportError as e:  # a Python without the package: say which one to use
            import sys
            sys.exit(f"\(moduleName).py needs the lumatrace Python package ({e}): pip install PATH-TO-LUMATRACE/python, "
                     f"or run it with a Lumatrace checkout's .venv/bin/python")


        class \(typeName)(Analyzer):
            #: Every kind it emits -> its shape: None (free JSON), or one Lumatrace draws, scores and
            #: diffs ("box" with id, boundingBox, confidence; "pathEnd", … see lumatrace.analyzer.SHAPES).
            events = {"brightness.change": None}

            def configure(self, options, stream):
                \"\"\"Once, before the first frame. `options` is `--set external.options='{…}'`; a
                ValueError refuses them and its message is what the user sees.\"\"\"
                unknown = sorted(set(options) - {"threshold"})
                if unknown:
                    raise ValueError(f"unknown option {', '.join(unknown)}: \(typeName) takes threshold")
                self.threshold = options.get("threshold", 8.0)
                if isinstance(self.threshold, bool) or not isinstance(self.threshold, (int, float)) \\
                        or not 0.1 <= self.threshold <= 255:
                    raise ValueError(f"threshold must be grey levels, 0.1...255 (got {self.threshold!r})")
                self.previous = None

            def analyze(self, frame):
                \"\"\"Every analyzed frame, in order: `frame.pixels` is (height, width) uint8, `frame.region`
                the region of interest's pixels; `frame.index`, `frame.seconds` say which and when.\"\"\"
                mean = float(frame.region.mean())
                if self.previous is not None and abs(mean - self.previous) > self.threshold:
                    yield Event("brightness.change", {"before": self.previous, "after": mean})
                self.previous = mean


        if __name__ == "__main__":
            run(\(typeName))

        """
    }

    var tests: String {
        """
        \"\"\"Tests of \(typeName) without Lumatrace: `run_on` runs it on frames made here, through the code
        that speaks to Lumatrace, and returns the events a replay would log.\"\"\"
        import numpy as np
        import pytest
        from lumatrace.analyzer import OptionsRefused, run_on

        from \(moduleName) import \(typeName)


        def flat(value, width=64, height=48):
            return np.full((height, width), value, dtype=np.uint8)


        def test_a_jump_in_brightness_is_one_change_at_the_frame_it_happens():
            frames = [flat(50 if i < 6 else 120) for i in range(10)]
            events = run_on(\(typeName), frames)
            assert [(e.frame, e.kind) for e in events] == [(6, "brightness.change")]
            assert events[0].data == {"before": 50.0, "after": 120.0}


        def test_a_change_outside_the_region_of_interest_is_not_seen():
            frames = [flat(50) for _ in range(10)]
            for f in frames[6:]:
                f[:, :32] = 200  # the left half brightens
            assert [e.frame for e in run_on(\(typeName), frames)] == [6]
            assert run_on(\(typeName), frames, region_of_interest=(0.5, 0, 0.5, 1)) == []


        def test_small_changes_stay_below_the_threshold():
            frames = [flat(100 + i % 2 * 5) for i in range(10)]
            assert run_on(\(typeName), frames) == []
            assert len(run_on(\(typeName), frames, {"threshold": 4})) == 9


        def test_impossible_options_are_refused_with_what_to_change():
            with pytest.raises(OptionsRefused, match=r"threshold must be grey levels, 0.1...255 \\(got 0\\)"):
                run_on(\(typeName), [flat(0)], {"threshold": 0})
            with pytest.raises(OptionsRefused, match="unknown option treshold"):
                run_on(\(typeName), [flat(0)], {"treshold": 5})

        """
    }

    var readme: String {
        """
        # \(typeName)

        A Lumatrace analyzer in Python (`\(moduleName).py`), made by `lumatrace new-analyzer --language python \(typeName)`.
        Lumatrace runs it through its `external` analyzer; `lumatrace.analyzer` speaks the protocol.

        ```sh
        \(interpreter) -m pytest                # its tests, without Lumatrace
        lumatrace replay clip.luma --analyzer external \\
          --set external.command="\(interpreter) \(moduleName).py" \\
          --set external.options='{"threshold":8}' -o clip.\(moduleName).events.jsonl
        ```

        - `\(moduleName).py`: the analyzer (an example brightness-change detector to edit): the event kinds it
          declares, `configure` for its options, `analyze` for each frame.
        - `test_\(moduleName).py`: tests with `lumatrace.analyzer.run_on`, on frames made in memory; it also takes
          a recording (`run_on(\(typeName), "clip.luma")`).

        `\(interpreter)` must have numpy and the `lumatrace` package: `pip install PATH-TO-LUMATRACE/python`
        into it, or use a Lumatrace checkout's `.venv/bin/python` instead (`scripts/install-dependencies
        --for-tests` makes it there). The command runs in the folder `replay` runs in;
        the log records that folder and the SHA-256 of `\(moduleName).py`, so
        `lumatrace verify LOG --allow-external` re-runs it from anywhere and says when the script changed.

        """
    }
}
