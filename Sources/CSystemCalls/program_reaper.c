// The reaper a program can be started under (see program_reaper.h): what the external analyzer
// runs its programs under.
//
// Everything after fork() runs in a child of a multi-threaded process, so it calls only
// async-signal-safe functions: system calls, no malloc, no stdio.
#define _GNU_SOURCE
#include "program_reaper.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/// Closes every descriptor from `first` on.
static void close_from(int first) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0) return;
#endif
    struct rlimit limit;
    int last = 4096;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < 65536) last = (int)limit.rlim_cur;
    for (int fd = first; fd < last; fd++) close(fd);
}

/// Every signal at its default disposition (the caller may ignore SIGPIPE or handle SIGINT).
static void default_dispositions(void) {
    struct sigaction action = {0};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    for (int s = 1; s < NSIG; s++) {
        if (s == SIGKILL || s == SIGSTOP) continue;
        sigaction(s, &action, 0);
    }
}

/// Puts `streams` (-1: left as they are) on descriptors 0, 1 and 2. Each is first copied above 2,
/// so that putting one in place cannot overwrite another that is still to be placed (a pipe that
/// got descriptor 0 because the caller's stdin was closed).
static int place_streams(const int streams[3]) {
    int lifted[3];
    for (int i = 0; i < 3; i++) {
        lifted[i] = streams[i] >= 0 && streams[i] != i ? fcntl(streams[i], F_DUPFD, 3) : -1;
        if (streams[i] >= 0 && streams[i] != i && lifted[i] < 0) return -1;
    }
    for (int i = 0; i < 3; i++) {
        if (lifted[i] >= 0 && dup2(lifted[i], i) < 0) return -1;
    }
    return 0;  // the copies are closed with every other descriptor above 2
}

static void unblock_all(void) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, 0);
}

/// Sends `signal_number` to the program's group and to each child of the reaper (the program and
/// every descendant adopted since its parent ended), read from /proc.
static void signal_all(int signal_number, pid_t program_group) {
    kill(-program_group, signal_number);
    int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    char buffer[4096];
    long value = 0;
    int in_number = 0;
    for (;;) {
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        for (ssize_t i = 0; i < n; i++) {
            char c = buffer[i];
            if (c >= '0' && c <= '9') {
                value = value * 10 + (c - '0');
                in_number = 1;
            } else if (in_number) {
                kill((pid_t)value, signal_number);
                value = 0;
                in_number = 0;
            }
        }
    }
    if (in_number) kill((pid_t)value, signal_number);
    close(fd);
}

/// The signal the kernel sends the reaper when the thread that started it ends
/// (PR_SET_PDEATHSIG): its own, so that the reaper can tell it from a TERM of the caller's.
#define PARENT_DEATH_SIGNAL SIGHUP

/// The signals the reaper acts on, kept blocked and taken with sigwaitinfo, so none can arrive
/// between a check and the wait and be missed: a child's end, TERM (end the program), ALRM (the
/// grace period is over), USR1 (KILL at once), HUP (the caller may have died).
static void reaper_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGCHLD);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGALRM);
    sigaddset(set, SIGUSR1);
    sigaddset(set, PARENT_DEATH_SIGNAL);
}

/// Waits for the program and all descendants; returns the program's wait status. `caller` is the
/// process that started the reaper: once it is no longer the reaper's parent, it has died (a
/// SIGKILL, the OOM killer) and nobody will ever stop the program, so the reaper does, as on TERM.
static int reap(pid_t program, int grace_ms, const sigset_t *signals, pid_t caller) {
    int program_status = 0;
    int stopping = 0, killing = 0, timer_set = 0;
    for (;;) {
        // Every child that has ended, without blocking.
        int status = 0;
        pid_t ended;
        while ((ended = waitpid(-1, &status, WNOHANG)) > 0) {
            if (ended == program) {
                program_status = status;
                stopping = 1;  // what it left running is ended now
            }
        }
        if (ended < 0 && errno == ECHILD) break;  // nothing left
        if (ended < 0 && errno != EINTR) break;
        if (stopping && !timer_set) {
            timer_set = 1;
            struct itimerval timer = {{0, 0}, {grace_ms / 1000, (grace_ms % 1000) * 1000}};
            setitimer(ITIMER_REAL, &timer, 0);
        }
        // While stopping, every pass signals what runs now: descendants adopted since the last
        // pass (their parent just ended) get the same treatment.
        if (stopping) signal_all(killing ? SIGKILL : SIGTERM, program);
        int received = sigwaitinfo(signals, 0);
        // The death signal also comes when only the caller's thread that started the reaper ends;
        // the reaper is then the child of another thread of the same process, which still runs.
        if (received == PARENT_DEATH_SIGNAL && getppid() != caller) stopping = 1;
        if (received == SIGTERM || received == SIGUSR1) stopping = 1;
        if (received == SIGALRM || received == SIGUSR1) killing = 1;
    }
    return program_status;
}

int lumatrace_spawn_reaped(const char *path, char *const argv[], char *const envp[], const int streams[3], const char *directory,
                           int grace_ms, pid_t *pid) {
    // No handler of the caller's may run in the child before its signals are reset.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
    pid_t caller = getpid();
    pid_t reaper = fork();
    if (reaper != 0) {
        int error = errno;
        pthread_sigmask(SIG_SETMASK, &previous, 0);
        if (reaper < 0) return error;
        // Also here, as the reaper does for the program: its group exists when this returns, so a
        // signal sent to the group at once is not lost, whichever process runs first.
        setpgid(reaper, reaper);
        *pid = reaper;
        return 0;
    }

    // The reaper. Every signal stays blocked (as the caller blocked them above) until the reaper
    // takes its own with sigwaitinfo: a TERM sent this early waits for it, and is not lost.
    default_dispositions();
    setpgid(0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    // Told when the caller dies, however it dies: a SIGKILL gives it no chance to stop the program.
    // A caller that died before this call is seen here: the reaper has another parent already, and
    // starts nothing.
    prctl(PR_SET_PDEATHSIG, PARENT_DEATH_SIGNAL, 0, 0, 0);
    if (getppid() != caller) _exit(127);
    pid_t program = fork();
    if (program == 0) {
        setpgid(0, 0);
        if (place_streams(streams) < 0 || (directory && chdir(directory) < 0)) _exit(127);
        close_from(3);
        unblock_all();  // a freshly started program: every signal at its default, none blocked
        execve(path, argv, envp);
        _exit(127);
    }
    if (program < 0) _exit(127);
    setpgid(program, program);  // also here, so the group exists whichever process runs first
    // The reaper holds nothing of the caller's: no pipe of this or another program stays open
    // because of it, and a consumer of the caller's stdout is not kept waiting by it.
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) { dup2(null, 0); dup2(null, 1); }
    close_from(3);
    sigset_t signals;
    reaper_signals(&signals);
    sigprocmask(SIG_SETMASK, &signals, 0);
    int status = reap(program, grace_ms, &signals, caller);
    if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        int s = WTERMSIG(status);
        unblock_all();
        signal(s, SIG_DFL);
        kill(getpid(), s);
        _exit(128 + s);
    }
    _exit(127);
}
