#ifndef LUMATRACE_PROGRAM_REAPER_H
#define LUMATRACE_PROGRAM_REAPER_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (its stdin on `input`, its stdout on `output`, stderr
/// shared) under a reaper: a small process of its own, forked from the caller, that is a child
/// subreaper (PR_SET_CHILD_SUBREAPER), so everything the program starts, even a daemon that calls
/// setsid() and double-forks, stays its descendant and is adopted by it when its parent ends.
///
/// The reaper leads a process group of its own (the program leads another) and is the pid
/// returned. It ends when nothing it looks after runs any more:
/// - when the program exits, what the program left running is sent SIGTERM, then SIGKILL after
///   `grace_ms`, until no descendant is left; then the reaper exits as the program did (the same
///   exit code, or the same signal);
/// - when the reaper gets SIGTERM, it sends SIGTERM to the program's group and to every
///   descendant it has adopted, then SIGKILL after `grace_ms`, and ends the same way;
/// - when it gets SIGUSR1, it does the same without waiting: SIGKILL at once (a second Ctrl-C).
///
/// Returns the reaper's pid, or -errno when it could not be started (a program that cannot be
/// executed exits with status 127).
pid_t lumatrace_spawn_reaped(const char *path, char *const argv[], char *const envp[], int input, int output, int grace_ms);

#endif
