#!/usr/bin/env python3
"""Replaying a recording over loopback HTTP against replaying the same file, in the same run.

    Benchmarks/run http [--runs 5] [--analyzer differencing]

A 720p recording (the ball-hand-moved-negative clip of ../shared/data, recorded here with the
release `lumatrace`) is served by nginx on 127.0.0.1, and replayed through the analyzer from the
file and from its URL, alternately, pinned to one core. Figures are frames per second, medians of
`--runs` runs; the ratio is HTTP ÷ local. The bytes the server sent for one HTTP replay are
compared with the file's size (a whole replay reads every chunk once).
"""
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import measuring  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_nginx(home, folder, port):
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        sys.exit("nginx is missing: apt-get install nginx (or scripts/install-dependencies)")
    temp = "\n".join(f"  {k}_temp_path {home}/{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (home / "nginx.conf").write_text(f"""daemon off; master_process off; worker_processes 1;
pid {home}/nginx.pid; error_log {home}/error.log;
events {{ worker_connections 64; }}
http {{
  log_format body '$body_bytes_sent';
  access_log {home}/access.log body;
{temp}
  server {{ listen 127.0.0.1:{port}; root {folder}; }}
}}
""")
    process = subprocess.Popen([nginx, "-p", str(home), "-c", str(home / "nginx.conf"), "-e", str(home / "error.log")])
    while True:  # ready when it accepts a connection
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return process
        if process.poll() is not None:
            sys.exit(f"nginx exited: {(home / 'error.log').read_text()[-500:]}")
        time.sleep(0.02)


def main():
    parser = measuring.argument_parser(__doc__, "runs of each; medians are reported (default 5)")
    parser.add_argument("--analyzer", default="differencing", help="the analyzer replayed (default differencing)")
    args = parser.parse_args()
    lumatrace = measuring.release_lumatrace()
    source = measuring.shared_clip("ball-hand-moved-negative", "ball4.mp4")
    core = str(measuring.one_core())
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        served, home = tmp / "served", tmp / "nginx"
        served.mkdir()
        home.mkdir()
        clip = served / "clip.luma"
        subprocess.run([lumatrace, "record", str(source), "-o", str(clip)], check=True, capture_output=True)
        frames = int(subprocess.run([lumatrace, "info", str(clip), "--quick", "--json"], check=True, capture_output=True,
                                    text=True).stdout.split('"frames":')[1].split(",")[0])
        port = free_port()
        server = start_nginx(home, served, port)
        try:
            url = f"http://127.0.0.1:{port}/clip.luma"
            times = {"local": [], "http": []}
            for _ in range(args.runs):
                for where, location in (("local", str(clip)), ("http", url)):
                    start = time.perf_counter()
                    subprocess.run(["taskset", "-c", core, lumatrace, "replay", location, "--analyzer", args.analyzer,
                                    "-o", str(tmp / f"{where}.events.jsonl"), "--force"], check=True, capture_output=True)
                    times[where].append(time.perf_counter() - start)
            sent = [int(line) for line in (home / "access.log").read_text().split()]
        finally:
            server.kill()
            server.wait()
        local, http = (frames / statistics.median(times[k]) for k in ("local", "http"))
        size = clip.stat().st_size
        print(f"replay --analyzer {args.analyzer}, 1280x720, {frames} frames, one core, median of {args.runs} runs")
        print(f"  local file   {local:8.1f} frames/s")
        print(f"  loopback HTTP{http:8.1f} frames/s   ({http / local:.3f} of local)")
        print(f"  bytes sent per HTTP replay: {sum(sent) // args.runs} for a {size}-byte file "
              f"({sum(sent) / args.runs / size:.3f}×), {len(sent) // args.runs} requests")


if __name__ == "__main__":
    sys.exit(main())
