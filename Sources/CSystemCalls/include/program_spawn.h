#ifndef LUMATRACE_PROGRAM_SPAWN_H
#define LUMATRACE_PROGRAM_SPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` as a freshly started program: its standard input, output
/// and error on `streams[0..2]` (a descriptor of the caller's, or -1: the caller's own stream), in
/// `directory` (NULL: the caller's), leading a new process group of its own when `new_group` is
/// non-zero, every signal at its default disposition and none blocked, and no other descriptor of
/// the caller's open in it.
///
/// Through posix_spawn, which shares the caller's memory until exec (no copy of a large process)
/// and reports a program that cannot be executed as an error here, not as an exit status later.
/// glibc's descriptor-closing and folder-changing spawn actions are GNU extensions that Swift
/// does not see, which is why this is C.
///
/// Returns 0 and the program's pid in `*pid`, or an errno value: from posix_spawn (the program
/// or the folder is missing, not executable, …) or, before it, from duplicating a descriptor.
int lumatrace_spawn(const char *path, char *const argv[], char *const envp[], const int streams[3], const char *directory,
                    int new_group, pid_t *pid);

/// A pipe whose two ends are closed on exec (pipe2 with O_CLOEXEC, in one step: no program started
/// meanwhile by another thread inherits them). Returns 0, or -1 with errno set.
int lumatrace_pipe(int ends[2]);

#endif
