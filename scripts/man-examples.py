#!/usr/bin/env python3
"""Keeps a man page's examples one per line: argument-parser's generate-manual writes a command's
discussion as filled text, where the examples (the lines indented by two spaces in `--help`) run
into the sentence after them. Each run of such lines becomes a literal display (`.Bd -literal
-offset indent` … `.Ed`), which keeps every line, and its indentation, as it is.

    python3 scripts/man-examples.py PAGE.1 [PAGE.1 ...]     # rewrites the pages in place
"""
import re
import sys
from pathlib import Path


def with_example_displays(page: str) -> str:
    """The mdoc text `page` with each run of lines indented by two spaces (not macro lines; the
    `\\&` before each space of the first text line's indentation dropped) as one literal display, the indentation of
    its first two spaces dropped."""
    out, run = [], []

    def flush():
        if run:
            out.extend([".Bd -literal -offset indent", *[line[2:] for line in run], ".Ed"])
            run.clear()

    for line in page.split("\n"):
        # The page's first text line keeps each space of its indentation behind a zero-width `\&`.
        escaped = re.match(r"^(?:\\& )+", line)
        if escaped:
            line = " " * (len(escaped.group(0)) // 3) + line[len(escaped.group(0)):]
        if line.startswith("  ") and line.strip():
            run.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out)


def main(paths) -> int:
    if not paths:
        print("usage: scripts/man-examples.py PAGE.1 [PAGE.1 ...]", file=sys.stderr)
        return 64
    for path in map(Path, paths):
        text = path.read_text()
        if ".Bd -literal" in text:
            continue  # already done: running twice changes nothing
        path.write_text(with_example_displays(text))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
