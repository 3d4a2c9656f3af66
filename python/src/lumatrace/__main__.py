"""The Python package's command line: `python -m lumatrace COMMAND ...` (or `lumatrace-py`).

    python -m lumatrace export-mcap clip.luma clip.events.jsonl -o clip.mcap
    python -m lumatrace export-rrd  clip.luma clip.events.jsonl -o clip.rrd

Each command is one entry of `COMMANDS`: a name, a function that adds its arguments to a parser,
and a function that runs it. Errors are printed here, in one place: the library raises errors
that name the file and know nothing of flags; this module words them as one line. The exit
statuses are the `lumatrace` tool's: 0 done, 2 an error (1 is its "a difference", which no command
here answers), 64 a wrong command line. `-o -` writes to standard output (the summary line then
goes to standard error), and a device such as `/dev/null` or a FIFO is written, never replaced.
"""
from __future__ import annotations

import argparse
import os
import sys
import textwrap

from ._progress import ProgressBar
from .errors import LumatraceError

#: Exit statuses, as the `lumatrace` tool's (`lumatrace --help`).
EXIT_FAILURE = 2
EXIT_USAGE = 64

_EXPORT_EPILOG = {
    "mcap": """\
        Opens in Foxglove (app.foxglove.dev, or the desktop app: File > Open local file).
        Topics: /camera/image (the frames), /lumatrace/ANALYZER/annotations (what each
        analyzer drew, for the Image panel) and /lumatrace/ANALYZER/events/KIND (every
        event as JSON with a schema: plot
        /lumatrace/differencing/events/diff.data.changedFraction).
        --layout writes a layout to import (Layouts > Import from file): the image with
        every analyzer's annotations, a plot of the main numbers, Raw Messages.
        A log of part of the recording (replay --from/--to) exports those frames only.

        example:
          python -m lumatrace export-mcap Recordings/balls-synth.luma \\
              Recordings/balls-synth.events.jsonl -o balls-synth.mcap \\
              --layout balls-synth.layout.json
        """,
    "rrd": """\
        Opens in Rerun: `rerun clip.rrd` (the viewer installed with rerun-sdk), or drop the
        file on the web viewer. One 2D view of /camera: the frame, and under
        camera/annotations/ANALYZER/LAYER what each analyzer drew; beside it the events'
        numbers as time series (events/ANALYZER/KIND/FIELD) and a text log of every
        event (events/ANALYZER). Scrub with the `time` or `frame` timeline.

        example:
          python -m lumatrace export-rrd Recordings/tracking-synth.luma \\
              Recordings/tracking-synth.events.jsonl -o tracking-synth.rrd
        """,
    "stream": """\
        Reads the log line by line and logs each event as it arrives: the numbers events
        carry as scalar series (events/ANALYZER/KIND/FIELD), every event in a text log
        (events/ANALYZER) and what they draw (camera/annotations/ANALYZER/LAYER; the
        frames stay in the .luma file: open it with export-rrd afterwards).

        example (a camera's events live in a viewer):
          ffmpeg -f v4l2 -i /dev/video0 -f yuv4mpegpipe - \\
            | lumatrace record - --live -o live.luma --analyzer trajectory --events - \\
            | python -m lumatrace stream-rerun --spawn
        """,
}


#: How --force recognises a file it may replace, by the output's suffix.
_KIND_WORDS = {"mcap": "its magic bytes show an MCAP file", "rrd": "its header shows a Rerun .rrd file"}


def _add_export_arguments(parser: argparse.ArgumentParser, suffix: str) -> None:
    parser.add_argument("recording", help="the .luma recording")
    parser.add_argument("events", help="its event log (.events.jsonl), from `lumatrace replay`")
    parser.add_argument("-o", "--output", required=True, metavar=f"OUT.{suffix}",
                        help=f"the .{suffix} file to write; it appears only when complete "
                             f"(`-` writes to standard output)")
    parser.add_argument("--force", action="store_true",
                        help=f"replace OUT.{suffix} if it exists and {_KIND_WORDS[suffix]} (no other file is ever "
                             f"replaced), and draw a log made from another recording of the same size")


def _add_mcap_arguments(parser: argparse.ArgumentParser) -> None:
    _add_export_arguments(parser, "mcap")
    parser.add_argument("--layout", metavar="LAYOUT.json",
                        help="also write a Foxglove layout for the file (an existing one replaced only with "
                             "--force, and only if it is a Foxglove layout: JSON with configById and layout)")


class _UsageError(Exception):
    """A command line whose options cannot go together (exit status `EXIT_USAGE`)."""


def _export_mcap(args) -> str:
    from ._output import same_path
    from .foxglove import to_mcap
    if args.layout is not None and args.output != "-" and same_path(args.output, args.layout):
        raise _UsageError(f"-o {args.output} and --layout {args.layout} name the same file: "
                          f"each output needs a file of its own")
    with ProgressBar.on_terminal(sys.stderr, "export-mcap") as progress:
        return str(to_mcap(args.recording, args.events, args.output, force=args.force, other_recording=args.force,
                           layout_path=args.layout, progress=progress))


def _export_rrd(args) -> str:
    from .rerun import to_rrd
    with ProgressBar.on_terminal(sys.stderr, "export-rrd") as progress:
        return str(to_rrd(args.recording, args.events, args.output, force=args.force, other_recording=args.force,
                          progress=progress))


def _add_stream_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("events", nargs="?", default="-",
                        help="the event log to stream: `-` (the default) reads standard input, e.g. "
                             "`lumatrace record --live ... --events -` piped in")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--spawn", action="store_true", help="start a Rerun viewer and stream to it")
    where.add_argument("--connect", metavar="URL",
                       help="stream to a running viewer (e.g. rerun+http://127.0.0.1:9876/proxy)")
    where.add_argument("--save", metavar="OUT.rrd", help="write the stream to an .rrd file when the log ends; Ctrl-C saves what was "
                            "streamed until then, marked incomplete")
    parser.add_argument("--force", action="store_true",
                        help=f"replace OUT.rrd if it exists and {_KIND_WORDS['rrd']} (no other file is ever replaced)")


def _stream_rerun(args) -> str:
    from ._interruption import Interruption
    from .rerun_live import stream_to_rerun
    # Ctrl-C ends a live session: what was streamed is kept, and --save saves it marked incomplete.
    with Interruption() as stop:
        return str(stream_to_rerun(args.events, spawn=args.spawn, connect=args.connect, save=args.save,
                                   force=args.force, stopped=stop.signal_name))


#: name, one-line summary, epilog, add arguments, run (returns the line printed on success).
COMMANDS = [
    ("export-mcap", "write a recording and its events as an MCAP file for Foxglove", _EXPORT_EPILOG["mcap"],
     _add_mcap_arguments, _export_mcap),
    ("export-rrd", "write a recording and its events as a Rerun .rrd file", _EXPORT_EPILOG["rrd"],
     lambda p: _add_export_arguments(p, "rrd"), _export_rrd),
    ("stream-rerun", "stream an event log to Rerun as it is written (a live recording's events)",
     _EXPORT_EPILOG["stream"], _add_stream_arguments, _stream_rerun),
]


class _Parser(argparse.ArgumentParser):
    """An argument parser that words a wrong command line as the `lumatrace` tool does: one line,
    `PROG: error: MESSAGE (see `PROG COMMAND --help`)`, and exit status 64."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def parser(prog: str | None = None) -> argparse.ArgumentParser:
    # The commands are listed in the description: argparse (3.11) wraps a subcommand list badly.
    listing = "\n".join(f"  {name:<13} {summary}" for name, summary, *_ in COMMANDS)
    top = _Parser(
        prog=prog or _prog(), usage="%(prog)s [-h] COMMAND ...",
        description=f"Lumatrace recordings and event logs from Python: exports for viewers.\n\ncommands:\n{listing}",
        epilog="`COMMAND --help` tells more. Recording and replaying are the Swift `lumatrace` tool's.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", metavar="COMMAND", help=argparse.SUPPRESS, required=True)
    for name, summary, epilog, add_arguments, run in COMMANDS:
        sub = commands.add_parser(name, prog=f"{top.prog} {name}", help=summary, description=summary[0].upper() + summary[1:] + ".",
                                  epilog=textwrap.dedent(epilog), formatter_class=argparse.RawDescriptionHelpFormatter)
        add_arguments(sub)
        sub.set_defaults(run=run)
    return top


def main(argv: list[str] | None = None) -> int:
    """Runs one command; returns the exit status (0, or `EXIT_FAILURE` when it failed). A wrong
    command line exits `EXIT_USAGE` (through `SystemExit`, as argparse does)."""
    prog = _prog()
    args = parser(prog).parse_args(argv)
    try:
        summary = args.run(args)
    except KeyboardInterrupt:
        return 130
    except _UsageError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as e:  # noqa: BLE001 - every failure becomes one line; the kinds are worded below
        print(f"{prog}: error: {_describe(e)}", file=sys.stderr)
        return EXIT_FAILURE
    # Standard output may be the result itself.
    print(summary, file=sys.stderr if getattr(args, "output", None) == "-" else sys.stdout)
    return 0


def _describe(error: Exception) -> str:
    """One line that says what went wrong, where, and (when there is one) what to do."""
    from ._export import MissingSDKError, OtherRecordingError
    from ._output import OutputError
    if isinstance(error, OutputError) and error.code == "exists":
        return f"{error} (--force replaces it)"
    if isinstance(error, OtherRecordingError):
        return f"{error}; pass --force to use it anyway"
    if isinstance(error, (LumatraceError, MissingSDKError)):
        return str(error)
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.filename}: {error.strerror or error}"
    return f"{type(error).__name__}: {error}"


def _prog() -> str:
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "python -m lumatrace" if name in ("", "__main__.py", "-c") else name


if __name__ == "__main__":
    sys.exit(main())
