#!/usr/bin/env python3
"""Runs a command as `scripts/reliability hostile` does: stdin from /dev/null, stdout discarded,
stderr to a file, at most SECONDS of time and 2 GiB of address space; prints one line,
`STATUS PEAK_KIB`: the exit status (or `signal-N`, or `hang` when it had to be killed) and the
most memory it held resident (its own ru_maxrss, from wait4).

  scripts/measure-run.py SECONDS STDERR_FILE COMMAND [ARGUMENTS...]
"""
import os
import resource
import signal
import sys
import time


def main() -> None:
    seconds, errors, command = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
    pid = os.fork()
    if pid == 0:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        null = os.open("/dev/null", os.O_RDWR)
        err = os.open(errors, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.dup2(err, 2)
        try:
            os.execv(command[0], command)
        finally:
            os._exit(127)
    deadline = time.monotonic() + seconds
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done == pid:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            print(f"hang {usage.ru_maxrss}")
            return
        time.sleep(0.01)
    if os.WIFSIGNALED(status):
        print(f"signal-{os.WTERMSIG(status)} {usage.ru_maxrss}")
    else:
        print(f"{os.WEXITSTATUS(status)} {usage.ru_maxrss}")


if __name__ == "__main__":
    main()
