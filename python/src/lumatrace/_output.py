"""A result file being written, kept safe the way the Swift `OutputFile` keeps it.

    with OutputFile("clip.mcap", force=False, inputs=["clip.luma", "clip.events.jsonl"], kind="mcap") as out:
        write_everything_to(out.writing_path)
    # only now is there a clip.mcap, and it is complete

The rules, the same as the command line's:
- the output is never one of the inputs (the same file, through a link, or the same name);
- the bytes go to a temporary sibling (`.NAME.PID-N.partial`) and reach the final name by a rename
  when everything was written: a failure never leaves half a file under the name the user gave;
- an existing file is replaced only with `force`, and only when it is recognised as a result of
  the same kind (an MCAP file by its magic bytes, an `.rrd` by its header, a Foxglove layout by
  its JSON shape): `force` never replaces a recording, an event log or a file of unknown kind;
- `-` (standard output), a character device such as `/dev/null` or a FIFO is a stream: never
  replaced, it receives the result once complete (the bytes are written to a temporary file first,
  since a writer may need to seek, and copied to the stream at the end).
"""
from __future__ import annotations

import itertools
import json
import os
import shutil
import stat
import sys
import tempfile

from .errors import LumatraceError

#: The first bytes of each kind of file an output may meet, for the own-kind rule.
_MAGIC = {
    "recording": (b"LUMA",),
    "event log": (b'{"format":"lumatrace.events"',),
    "mcap": (b"\x89MCAP",),
    "rrd": (b"RRF",),
}
#: A Foxglove layout is JSON, recognised by its shape (`_is_layout`); one larger than this is not read.
_LARGEST_LAYOUT = 16 << 20
_NOUN = {"recording": "a Lumatrace recording", "event log": "a Lumatrace event log",
         "mcap": "an MCAP file", "rrd": "a Rerun .rrd file",
         "foxglove layout": "a Foxglove layout"}
_counter = itertools.count()


class OutputError(LumatraceError):
    """A result cannot be written where asked. `code` says why, as the Swift `OutputError` case
    does: `exists`, `isInput`, `wrongKind`, `otherKind`, `folderMissing`, `io`."""

    def __init__(self, path: str, code: str, message: str):
        super().__init__(path, message)
        self.code = code


#: The path that means standard output.
STANDARD_OUTPUT = "-"


class OutputFile:
    """Claims `path` for a result of `kind` ("mcap", "rrd"): checks it, and hands out a temporary
    sibling to write (`writing_path`) that a clean exit from the `with` block renames into place
    (or, for a stream, copies to it). An exception inside the block removes the temporary file and
    leaves `path` as it was."""

    def __init__(self, path, *, force: bool, inputs, kind: str):
        self.path = os.fspath(path)
        self.force = force
        self.kind = kind
        self.inputs = [os.fspath(p) for p in inputs]
        #: Standard output, a device or a FIFO: written once complete, never replaced.
        self.is_stream = check(self.path, force=force, inputs=self.inputs, kind=kind)
        if self.is_stream:
            # A folder of our own (mode 0700): nobody else can put a file or link at the name.
            self._folder = tempfile.mkdtemp(prefix="lumatrace-")
            self.writing_path = os.path.join(self._folder, f"output.{kind}.partial")
        else:
            folder, name = os.path.split(self.path)
            self.writing_path = os.path.join(folder, f".{name}.{os.getpid()}-{next(_counter)}.partial")

    @property
    def name(self) -> str:
        """The output in a user's words: its path, or "standard output"."""
        return "standard output" if self.path == STANDARD_OUTPUT else self.path

    def __enter__(self) -> "OutputFile":
        return self

    def __exit__(self, kind, error, traceback) -> None:
        if kind is not None:
            self._remove_temporary()
            return
        try:
            self._commit()
        except BaseException:
            self._remove_temporary()
            raise

    def _commit(self) -> None:
        if not os.path.exists(self.writing_path):
            raise OutputError(self.path, "io", "nothing was written")
        if self.is_stream:
            self._copy_to_stream()
            self._remove_temporary()
            return
        # Checked again: the inputs were read meanwhile, and something may have appeared.
        check(self.path, force=self.force, inputs=self.inputs, kind=self.kind)
        if self.force:
            os.replace(self.writing_path, self.path)
            return
        try:
            # A hard link never replaces what got there first; the rename would.
            os.link(self.writing_path, self.path)
        except FileExistsError:
            raise OutputError(self.path, "exists", "already exists") from None
        except OSError:
            os.replace(self.writing_path, self.path)  # a file system without hard links
            return
        os.unlink(self.writing_path)

    def _copy_to_stream(self) -> None:
        try:
            with open(self.writing_path, "rb") as source:
                if self.path == STANDARD_OUTPUT:
                    sys.stdout.flush()
                    shutil.copyfileobj(source, sys.stdout.buffer)
                    sys.stdout.buffer.flush()
                else:
                    with open(self.path, "wb") as stream:
                        shutil.copyfileobj(source, stream)
        except OSError as e:
            raise OutputError(self.path, "io", e.strerror or str(e)) from None

    def _remove_temporary(self) -> None:
        if self.is_stream:
            shutil.rmtree(self._folder, ignore_errors=True)
            return
        try:
            os.unlink(self.writing_path)
        except FileNotFoundError:
            pass


def check(path: str, *, force: bool, inputs, kind: str) -> bool:
    """Raises `OutputError` unless a result of `kind` may be written at `path`; returns whether
    `path` is a stream (standard output, a character device, a FIFO)."""
    if path == STANDARD_OUTPUT:
        return True
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise OutputError(path, "folderMissing", f"the folder {folder} does not exist")
    for given in inputs:
        if _same_file(path, given) or _same_name(path, given):
            message = ("is this command's input; write the result somewhere else" if given == path
                       else f"is the same file as the input {given}; write the result somewhere else")
            raise OutputError(path, "isInput", message)
    if os.path.isdir(path):
        raise OutputError(path, "wrongKind", "is a folder; the output here is a file")
    if not os.path.lexists(path):
        return False
    try:
        mode = os.stat(path).st_mode
    except OSError:
        raise OutputError(path, "wrongKind", "is a link to nothing; the output here is a file") from None
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return True
    if not stat.S_ISREG(mode):
        raise OutputError(path, "wrongKind", "is not a regular file; the output here is a file")
    if not force:
        raise OutputError(path, "exists", "already exists")
    found = _kind_of(path)
    if found != kind:
        what = f"is {_NOUN[found]}, not {_NOUN[kind]}" if found else f"is not {_NOUN[kind]} (a file of unknown kind)"
        raise OutputError(path, "otherKind", f"{what}; a result replaces only a file of its own kind: "
                                             f"remove it first or choose another name")
    return False


def _kind_of(path: str) -> str | None:
    """The kind of result or input the file at `path` is, by its first bytes (a layout by its JSON
    shape), or None when it is none of them."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
            if head.lstrip().startswith(b"{") and os.fstat(f.fileno()).st_size <= _LARGEST_LAYOUT:
                f.seek(0)
                if _is_layout(f.read()):
                    return "foxglove layout"
    except OSError as e:
        raise OutputError(path, "io", e.strerror or str(e)) from None
    for kind, prefixes in _MAGIC.items():
        if any(head.startswith(p) for p in prefixes):
            return kind
    return None


def _is_layout(text: bytes) -> bool:
    """Whether `text` is a Foxglove layout: a JSON object with `configById` (an object) and `layout`."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and isinstance(value.get("configById"), dict) and "layout" in value


def same_path(a, b) -> bool:
    """Whether two paths name one file: the same file (through a link, or another spelling), or
    the same entry of the same folder whether or not it exists yet."""
    a, b = os.fspath(a), os.fspath(b)
    return _same_file(a, b) or _same_name(a, b)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _same_name(a: str, b: str) -> bool:
    """The same entry of the same folder (folders compared with links resolved), whether or not
    the file exists yet."""
    return (os.path.basename(a) == os.path.basename(b)
            and os.path.realpath(os.path.dirname(a) or ".") == os.path.realpath(os.path.dirname(b) or "."))
