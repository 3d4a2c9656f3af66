#ifndef LUMATRACE_PROGRAM_REAPER_H
#define LUMATRACE_PROGRAM_REAPER_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (its standard input, output and error on `streams[0..2]`:
/// a descriptor of the caller's, or -1 for the caller's own stream; in `directory`, NULL: the
/// caller's) under a reaper: a small process of its own, forked from the caller, that is a child
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
/// - when it gets SIGUSR1, it does the same without waiting: SIGKILL at once (a second Ctrl-C);
/// - when the caller dies (PR_SET_PDEATHSIG, even by SIGKILL), it does as on SIGTERM, so a killed
///   caller leaves nothing of the program running.
///
/// The program starts as a freshly started program: every signal at its default, none blocked, no
/// other descriptor of the caller's open. Returns 0 and the reaper's pid in `*pid`, or an errno
/// value when it could not be started (a program that cannot be executed exits with status 127).
int lumatrace_spawn_reaped(const char *path, char *const argv[], char *const envp[], const int streams[3], const char *directory,
                           int grace_ms, pid_t *pid);

#endif
