"""What every export does with its output file and on the command line, whatever the viewer:
`lumatrace._export.exporting` claims the file and pairs the inputs, and `python -m lumatrace` words
their errors, so `to_mcap` (`export-mcap`) and `to_rrd` (`export-rrd`) are checked here together.
What each writes inside the file is in `test_foxglove.py` and `test_rerun.py`."""
import importlib
import io
import os
import subprocess
import sys
from typing import Callable, NamedTuple

import pytest

from lumatrace.__main__ import main
from lumatrace._export import MissingSDKError
from lumatrace._output import OutputError
from lumatrace.errors import EventLogError

from export_expectations import events_path, recording_path


class Exporter(NamedTuple):
    write: Callable
    #: Its command in `python -m lumatrace`.
    command: str
    suffix: str
    #: The first bytes of a file of this kind (`_output._MAGIC`), standing for an older export.
    magic: bytes
    #: The SDK's module, which is also the name of the extra that installs it.
    sdk: str


#: Each export: its SDK, its module and function, and its files.
EXPORTS = {"mcap": ("foxglove", "lumatrace.foxglove", "to_mcap", b"\x89MCAP0\r\n"),
           "rrd": ("rerun", "lumatrace.rerun", "to_rrd", b"RRF2")}


@pytest.fixture(params=sorted(EXPORTS))
def export(request) -> Exporter:
    sdk, module, function, magic = EXPORTS[request.param]
    pytest.importorskip(sdk, reason=f"needs the {sdk} SDK: pip install 'lumatrace[{sdk}]'")
    return Exporter(getattr(importlib.import_module(module), function), f"export-{request.param}",
                    f".{request.param}", magic, sdk)


# MARK: - Files


def test_an_existing_file_is_replaced_only_with_force(export, tmp_path):
    out = tmp_path / f"clip{export.suffix}"
    old = export.magic + b"old"
    out.write_bytes(old)
    with pytest.raises(OutputError) as refused:
        export.write(recording_path("toss-real"), events_path("toss-real"), out)
    assert refused.value.code == "exists" and str(out) in str(refused.value)
    assert out.read_bytes() == old
    summary = export.write(recording_path("toss-real"), events_path("toss-real"), out, force=True)
    assert summary.frames == 60 and out.read_bytes().startswith(export.magic) and out.read_bytes() != old
    assert sorted(os.listdir(tmp_path)) == [out.name]


@pytest.mark.parametrize("other, noun", [("recording", "recording"), ("events", "event log")])
def test_force_never_replaces_a_file_of_another_kind(export, tmp_path, other, noun):
    out = tmp_path / f"clip{export.suffix}"
    original = (recording_path if other == "recording" else events_path)("toss-real").read_bytes()[:64]
    out.write_bytes(original)
    with pytest.raises(OutputError) as refused:
        export.write(recording_path("toss-real"), events_path("toss-real"), out, force=True)
    assert refused.value.code == "otherKind" and noun in str(refused.value)
    assert out.read_bytes() == original


def test_a_log_without_its_footer_exports_and_says_it_is_incomplete(export, tmp_path, capsys):
    lines = events_path("toss-real").read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.events.jsonl"
    cut.write_bytes(b"".join(lines[:-1]))   # a replay that did not finish: no footer
    out = tmp_path / f"cut{export.suffix}"
    assert main([export.command, str(recording_path("toss-real")), str(cut), "-o", str(out)]) == 0
    said = capsys.readouterr().out.strip()
    assert said.startswith(f"wrote {out}: 60 frames, ") and said.endswith(
        "; the log is incomplete (no footer: its replay did not finish)"), said
    whole = tmp_path / f"whole{export.suffix}"
    assert main([export.command, str(recording_path("toss-real")), str(events_path("toss-real")), "-o", str(whole)]) == 0
    assert "incomplete" not in capsys.readouterr().out


@pytest.mark.parametrize("content", [b"my notes\n", b"", b"RR", b"\x89MCA"])
def test_force_never_replaces_a_file_of_unknown_kind(export, tmp_path, content, capsys):
    out = tmp_path / "notes.txt"
    out.write_bytes(content)
    with pytest.raises(OutputError) as refused:
        export.write(recording_path("toss-real"), events_path("toss-real"), out, force=True)
    assert refused.value.code == "otherKind"
    assert "is not " in str(refused.value) and "a file of unknown kind" in str(refused.value)
    assert main([export.command, str(recording_path("toss-real")), str(events_path("toss-real")), "-o", str(out),
                 "--force"]) == 2
    assert "notes.txt: is not " in capsys.readouterr().err
    assert out.read_bytes() == content
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]


@pytest.mark.parametrize("which", ["recording", "events"])
def test_the_output_is_never_an_input_by_its_name_another_path_or_a_link(export, tmp_path, which):
    rec, log = tmp_path / "clip.luma", tmp_path / "clip.events.jsonl"
    rec.write_bytes(recording_path("toss-real").read_bytes())
    log.write_bytes(events_path("toss-real").read_bytes())
    target = rec if which == "recording" else log
    before = target.read_bytes()
    link = tmp_path / f"link{export.suffix}"
    link.symlink_to(target)
    for out in (target, tmp_path / ".." / tmp_path.name / target.name, link):
        with pytest.raises(OutputError) as refused:
            export.write(rec, log, out, force=True)
        assert refused.value.code == "isInput" and str(out) in str(refused.value)
    assert target.read_bytes() == before


def test_a_failed_export_leaves_nothing_behind(export, tmp_path):
    with pytest.raises(EventLogError) as wrong:
        export.write(recording_path("toss-real"), events_path("balls-synth"), tmp_path / f"x{export.suffix}")
    assert "balls-synth.events.jsonl" in str(wrong.value) and "320x180" in str(wrong.value)
    assert os.listdir(tmp_path) == []


# MARK: - Command line

def test_the_command_line_writes_and_says_what(export, tmp_path, capsys):
    out = tmp_path / f"c{export.suffix}"
    args = [export.command, str(recording_path("toss-real")), str(events_path("toss-real")), "-o", str(out)]
    assert main(args) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out}: 60 frames, 74 events")
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith(f"{out}: already exists (--force replaces it)")
    assert main(args + ["--force"]) == 0


@pytest.mark.parametrize("recording, events, says", [
    ("toss-real.events.jsonl", "toss-real.events.jsonl", "toss-real.events.jsonl: not a .luma recording"),
    ("toss-real.luma", "missing.jsonl", "missing.jsonl")])
def test_the_command_line_words_a_bad_input_as_one_line(export, tmp_path, capsys, recording, events, says):
    bundled = recording_path("toss-real").parent
    paths = [str(bundled / name) if (bundled / name).exists() else str(tmp_path / name) for name in (recording, events)]
    assert main([export.command, *paths, "-o", str(tmp_path / f"x{export.suffix}")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]


def test_without_the_sdk_the_error_says_how_to_install_it(export, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, export.sdk, None)
    install = f"pip install 'lumatrace[{export.sdk}]'"
    with pytest.raises(MissingSDKError) as missing:
        export.write(recording_path("toss-real"), events_path("toss-real"), tmp_path / f"x{export.suffix}")
    assert install in str(missing.value)
    assert main([export.command, str(recording_path("toss-real")), str(events_path("toss-real")),
                 "-o", str(tmp_path / f"x{export.suffix}")]) == 2
    assert install in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


def run_command(*args, cwd):
    """`python -m lumatrace ARGS` in a process of its own: (exit status, stdout bytes, stderr lines)."""
    done = subprocess.run([sys.executable, "-m", "lumatrace", *map(str, args)], cwd=cwd, capture_output=True)
    return done.returncode, done.stdout, done.stderr.decode().strip().splitlines()


def test_dash_writes_the_export_to_standard_output_and_the_summary_to_standard_error(export, tmp_path):
    status, out, err = run_command(export.command, recording_path("toss-real"), events_path("toss-real"), "-o", "-",
                                   cwd=tmp_path)
    assert status == 0, err
    assert out.startswith(export.magic) and len(out) > 100_000
    assert len(err) == 1 and err[0].startswith("wrote standard output: 60 frames, 74 events")
    assert os.listdir(tmp_path) == [], "no file named '-', nothing left behind"
    if export.suffix == ".mcap":  # the same bytes as the file (an .rrd differs run to run by its row ids)
        file = tmp_path / "c.mcap"
        export.write(recording_path("toss-real"), events_path("toss-real"), file)
        assert file.read_bytes() == out


def test_a_device_such_as_dev_null_is_written_not_replaced(export, tmp_path):
    status, out, err = run_command(export.command, recording_path("toss-real"), events_path("toss-real"),
                                   "-o", os.devnull, cwd=tmp_path)
    assert status == 0 and err == [] and out.decode().startswith(f"wrote {os.devnull}: 60 frames")
    assert os.listdir(tmp_path) == [] and not os.path.isfile(os.devnull)


def test_exit_statuses_are_the_lumatrace_tools(export, tmp_path):
    """0 done, 2 an error (1 is lumatrace's "a difference"), 64 a wrong command line; one line each."""
    status, _, err = run_command(export.command, recording_path("toss-real"), tmp_path / "missing.jsonl",
                                 "-o", tmp_path / f"x{export.suffix}", cwd=tmp_path)
    assert status == 2 and len(err) == 1 and "missing.jsonl" in err[0]
    status, _, err = run_command(export.command, recording_path("toss-real"), cwd=tmp_path)
    assert status == 64 and len(err) == 1
    assert err[0].startswith(f"python -m lumatrace {export.command}: error: ") and "--help" in err[0]
    status, _, err = run_command("no-such-command", cwd=tmp_path)
    assert status == 64 and len(err) == 1 and "no-such-command" in err[0]


# MARK: - Progress

class Terminal(io.StringIO):
    """Standard error as a terminal."""

    def isatty(self):
        return True


def test_a_progress_bar_counts_the_frames_on_a_terminal_and_is_erased_at_the_end(export, tmp_path, monkeypatch,
                                                                                  capsys):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    out = tmp_path / f"x{export.suffix}"
    assert main([export.command, str(recording_path("toss-real")), str(events_path("toss-real")), "-o", str(out)]) == 0
    drawn = terminal.getvalue()
    bars = drawn.split("\r")[1:-1]
    assert bars[0].startswith(f"{export.command} [") and bars[0].endswith("] 1/60 frames")
    assert bars[-1] == f"{export.command} [{'#' * 30}] 60/60 frames"
    assert len(bars) == 60                         # once per percent: every frame of 60
    assert drawn.endswith("\r\033[K")
    assert "wrote" in capsys.readouterr().out


def test_no_progress_bar_when_standard_error_is_not_a_terminal(export, tmp_path):
    out = tmp_path / f"x{export.suffix}"
    done = subprocess.run([sys.executable, "-m", "lumatrace", export.command, str(recording_path("toss-real")),
                           str(events_path("toss-real")), "-o", str(out)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(recording_path("x").parents[1] / "python" / "src")})
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
