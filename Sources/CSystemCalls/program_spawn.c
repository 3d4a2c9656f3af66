// Starting a program (see program_spawn.h).
#define _GNU_SOURCE
#include "program_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

int lumatrace_spawn(const char *path, char *const argv[], char *const envp[], const int streams[3], const char *directory,
                    int new_group, pid_t *pid) {
    // A descriptor below 3 that goes elsewhere (the caller's stdin closed, so a pipe got 0) is
    // copied above 2 first: putting the streams in place one by one must not overwrite it.
    int source[3], lifted[3] = {-1, -1, -1};
    for (int i = 0; i < 3; i++) {
        source[i] = streams[i];
        if (streams[i] >= 0 && streams[i] < 3 && streams[i] != i) {
            lifted[i] = fcntl(streams[i], F_DUPFD_CLOEXEC, 3);
            if (lifted[i] < 0) {
                int error = errno;
                for (int j = 0; j < i; j++) if (lifted[j] >= 0) close(lifted[j]);
                return error;
            }
            source[i] = lifted[i];
        }
    }

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int error = posix_spawn_file_actions_init(&actions);
    if (error == 0) {
        error = posix_spawnattr_init(&attributes);
        if (error != 0) posix_spawn_file_actions_destroy(&actions);
    }
    if (error != 0) {
        for (int i = 0; i < 3; i++) if (lifted[i] >= 0) close(lifted[i]);
        return error;
    }
    // A stream that is already in place (1 for standard output) is left as it is, inherited.
    for (int i = 0; i < 3 && error == 0; i++) {
        if (source[i] >= 0 && source[i] != i) error = posix_spawn_file_actions_adddup2(&actions, source[i], i);
    }
    if (error == 0) error = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (error == 0 && directory) error = posix_spawn_file_actions_addchdir_np(&actions, directory);

    sigset_t every, none;
    sigfillset(&every);
    sigemptyset(&none);
    short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | (new_group ? POSIX_SPAWN_SETPGROUP : 0);
    if (error == 0) error = posix_spawnattr_setsigdefault(&attributes, &every);
    if (error == 0) error = posix_spawnattr_setsigmask(&attributes, &none);
    if (error == 0) error = posix_spawnattr_setpgroup(&attributes, 0);  // with SETPGROUP: a group led by the program
    if (error == 0) error = posix_spawnattr_setflags(&attributes, flags);
    if (error == 0) error = posix_spawn(pid, path, &actions, &attributes, argv, envp);

    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    for (int i = 0; i < 3; i++) if (lifted[i] >= 0) close(lifted[i]);
    return error;
}

int lumatrace_pipe(int ends[2]) { return pipe2(ends, O_CLOEXEC); }
