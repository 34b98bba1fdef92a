// Async-signal-safe terminal restoration and signal forwarding; see include/mischief_terminal.h.
#define _GNU_SOURCE 1
#include "mischief_terminal.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

// MARK: - Crash restoration

/// Leave the alternate screen, reset the keypad/cursor-key modes, turn mouse reporting off (normal, button and
/// any-event tracking, SGR form) and bracketed paste off, show the cursor, reset attributes, new line.
static const char reset_sequence[] =
    "\033[?1049l\033[?1l\033>\033[?1000l\033[?1002l\033[?1003l\033[?1006l\033[?2004l\033[?25h\033[0m\r\n";

/// The signals whose default action ends the process with a core dump: each restores the terminal and then ends the
/// process the way it would have without the console.
static const int crash_signals[] = {
    SIGSEGV, SIGILL, SIGBUS, SIGABRT, SIGTRAP, SIGFPE, SIGSYS, SIGQUIT, SIGXCPU, SIGXFSZ
};
#define CRASH_SIGNAL_COUNT ((int)(sizeof(crash_signals) / sizeof(crash_signals[0])))

static struct sigaction previous_crash_actions[CRASH_SIGNAL_COUNT];
/// Whether the handler was installed for each signal (not for one that was ignored before).
static int crash_handled[CRASH_SIGNAL_COUNT];
static volatile sig_atomic_t crash_installed = 0;
static volatile sig_atomic_t crash_restored = 0;
static int saved_tty_fd = -1;
static struct termios saved_termios;
static volatile sig_atomic_t termios_saved = 0;

static int crash_index(int sig) {
    for (int i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        if (crash_signals[i] == sig) {
            return i;
        }
    }
    return -1;
}

static void wake_terminal_thread(int bit);

/// Ends the process with `sig` under its default action (a core dump for these), even when the signal was sent
/// with kill(2) and so does not recur when the handler returns.
static void die_of(int sig) {
    struct sigaction default_action;
    memset(&default_action, 0, sizeof(default_action));
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(sig, &default_action, NULL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    // Pending while blocked in this handler; delivered, and fatal, as soon as it is unblocked.
    raise(sig);
    pthread_sigmask(SIG_UNBLOCK, &only, NULL);
}

static void crash_handler(int sig, siginfo_t *info, void *context);

// Makes crash_handler the handler of `sig` (on the alternate stack, with its siginfo); the old action goes to
// `previous` when it is not NULL.
static int catch_crash_signal(int sig, struct sigaction *previous) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = crash_handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    return sigaction(sig, &action, previous);
}

static void crash_handler(int sig, siginfo_t *info, void *context) {
    int saved_errno = errno;
    // Restore the terminal once, even if several threads crash at the same time.
    if (!crash_restored) {
        crash_restored = 1;
        if (saved_tty_fd >= 0) {
            ssize_t ignored = write(saved_tty_fd, reset_sequence, sizeof(reset_sequence) - 1);
            (void)ignored;
            if (termios_saved) {
                tcsetattr(saved_tty_fd, TCSANOW, &saved_termios);
            }
        }
    }
    int index = crash_index(sig);
    if (index < 0) {
        errno = saved_errno;
        return;
    }
    struct sigaction previous = previous_crash_actions[index];
    sigaction(sig, &previous, NULL);
    errno = saved_errno;
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL) {
        // Hand over with the original siginfo and context so the backtracer sees the real crash site.
        previous.sa_sigaction(sig, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler != NULL) {
        previous.sa_handler(sig);
    }
    // The previous handler returned. The Swift backtracer does so after resetting its handlers to the default,
    // expecting the fault to recur when the faulting instruction runs again; but a signal sent with kill(2) or
    // raise(3) never recurs, and the process would go on (drawing over the backtrace). So: when the default action
    // is what is left, die of it now.
    struct sigaction now;
    if (sigaction(sig, NULL, &now) == 0 && !(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_DFL) {
        die_of(sig);
        errno = saved_errno;
        return;
    }
    // A handler of the program's own dealt with it and stays: catch the next one again, and take the terminal back.
    catch_crash_signal(sig, NULL);
    crash_restored = 0;
    wake_terminal_thread(MISCHIEF_SIGNAL_CONTINUE);
    errno = saved_errno;
}

/// Restores the terminal when the process exits (exit(3), such as a `crash` behaviour's) while the console is up.
static void restore_at_exit(void) {
    if (!crash_installed || crash_restored) {
        return;
    }
    crash_restored = 1;
    if (saved_tty_fd >= 0) {
        ssize_t ignored = write(saved_tty_fd, reset_sequence, sizeof(reset_sequence) - 1);
        (void)ignored;
        if (termios_saved) {
            tcsetattr(saved_tty_fd, TCSANOW, &saved_termios);
        }
    }
}

int mischief_terminal_crash_install(int tty_fd) {
    if (crash_installed) {
        return 0;
    }
    static int exit_hook_installed = 0;
    if (!exit_hook_installed) {
        exit_hook_installed = 1;
        atexit(restore_at_exit);
    }
    saved_tty_fd = tty_fd;
    termios_saved = 0;
    if (tcgetattr(tty_fd, &saved_termios) == 0) {
        termios_saved = 1;
    }
    crash_restored = 0;
    for (int i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        crash_handled[i] = 0;
        // A signal the program ignores (SIGQUIT under nohup, say) stays ignored.
        if (sigaction(crash_signals[i], NULL, &previous_crash_actions[i]) == 0
            && !(previous_crash_actions[i].sa_flags & SA_SIGINFO)
            && previous_crash_actions[i].sa_handler == SIG_IGN) {
            continue;
        }
        if (catch_crash_signal(crash_signals[i], &previous_crash_actions[i]) != 0) {
            int error = errno;
            for (int j = 0; j < i; j++) {
                if (crash_handled[j]) {
                    sigaction(crash_signals[j], &previous_crash_actions[j], NULL);
                }
            }
            errno = error;
            return -1;
        }
        crash_handled[i] = 1;
    }
    crash_installed = 1;
    return 0;
}

void mischief_terminal_crash_uninstall(void) {
    if (!crash_installed) {
        return;
    }
    for (int i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        if (crash_handled[i]) {
            sigaction(crash_signals[i], &previous_crash_actions[i], NULL);
            crash_handled[i] = 0;
        }
    }
    crash_installed = 0;
}

void mischief_terminal_restore_termios(void) {
    if (termios_saved && saved_tty_fd >= 0) {
        tcsetattr(saved_tty_fd, TCSANOW, &saved_termios);
    }
}

// MARK: - Signal forwarding

static atomic_int pending_signals = 0;
static volatile int wake_fd = -1;
static struct sigaction previous_hup, previous_int, previous_term, previous_winch;
static int signals_installed = 0;
static int winch_installed = 0;

static int signal_bit(int sig) {
    switch (sig) {
    case SIGHUP: return MISCHIEF_SIGNAL_HANGUP;
    case SIGINT: return MISCHIEF_SIGNAL_INTERRUPT;
    case SIGTERM: return MISCHIEF_SIGNAL_TERMINATE;
    case SIGWINCH: return MISCHIEF_SIGNAL_WINCH;
    case SIGTSTP: return MISCHIEF_SIGNAL_SUSPEND;
    case SIGCONT: return MISCHIEF_SIGNAL_CONTINUE;
    default: return 0;
    }
}

/// Records `bit` as pending and wakes the thread polling the wake-up pipe. Async-signal-safe.
static void wake_terminal_thread(int bit) {
    atomic_fetch_or(&pending_signals, bit);
    int fd = wake_fd;
    if (fd >= 0) {
        char byte = (char)bit;
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
    }
}

static void forward_handler(int sig, siginfo_t *info, void *context) {
    int saved_errno = errno;
    wake_terminal_thread(signal_bit(sig));
    if (sig == SIGWINCH) {
        struct sigaction previous = previous_winch;
        if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL) {
            previous.sa_sigaction(sig, info, context);
        } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler != NULL) {
            previous.sa_handler(sig);
        }
    }
    errno = saved_errno;
}

static int install_forward(int sig, struct sigaction *previous) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = forward_handler;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(sig, &action, previous);
}

int mischief_terminal_signals_install(int fd) {
    if (signals_installed) {
        return 0;
    }
    wake_fd = fd;
    atomic_store(&pending_signals, 0);
    if (install_forward(SIGHUP, &previous_hup) != 0) {
        return -1;
    }
    if (install_forward(SIGINT, &previous_int) != 0) {
        int error = errno;
        sigaction(SIGHUP, &previous_hup, NULL);
        errno = error;
        return -1;
    }
    if (install_forward(SIGTERM, &previous_term) != 0) {
        int error = errno;
        sigaction(SIGHUP, &previous_hup, NULL);
        sigaction(SIGINT, &previous_int, NULL);
        errno = error;
        return -1;
    }
    signals_installed = 1;
    return 0;
}

int mischief_terminal_winch_install(void) {
    if (winch_installed) {
        return 0;
    }
    if (install_forward(SIGWINCH, &previous_winch) != 0) {
        return -1;
    }
    winch_installed = 1;
    return 0;
}

// MARK: - Job control and user signals

static const int job_signals[] = { SIGTSTP, SIGCONT, SIGUSR1, SIGUSR2 };
#define JOB_SIGNAL_COUNT ((int)(sizeof(job_signals) / sizeof(job_signals[0])))
static struct sigaction previous_job_actions[JOB_SIGNAL_COUNT];
static int job_handled[JOB_SIGNAL_COUNT];

int mischief_terminal_job_control_install(int fd) {
    if (wake_fd < 0) {
        wake_fd = fd;
    }
    for (int i = 0; i < JOB_SIGNAL_COUNT; i++) {
        if (job_handled[i]) {
            continue;
        }
        int sig = job_signals[i];
        struct sigaction previous;
        if (sigaction(sig, NULL, &previous) != 0) {
            return -1;
        }
        int is_default = !(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_DFL;
        int is_ignored = !(previous.sa_flags & SA_SIGINFO) && previous.sa_handler == SIG_IGN;
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        sigemptyset(&action.sa_mask);
        if (sig == SIGUSR1 || sig == SIGUSR2) {
            // Their default kills the process with the terminal in raw mode; a handler of the program's own stays.
            if (!is_default) {
                continue;
            }
            action.sa_handler = SIG_IGN;
        } else {
            // A program that ignores SIGTSTP (or handles SIGCONT itself) keeps it that way.
            if (is_ignored || (sig == SIGCONT && !is_default)) {
                continue;
            }
            action.sa_sigaction = forward_handler;
            action.sa_flags = SA_SIGINFO | SA_RESTART;
        }
        if (sigaction(sig, &action, &previous_job_actions[i]) != 0) {
            return -1;
        }
        job_handled[i] = 1;
    }
    return 0;
}

void mischief_terminal_stop_self(void) {
    int index = 0;
    while (job_signals[index] != SIGTSTP) {
        index++;
    }
    struct sigaction ignore, stop, ours;
    memset(&ignore, 0, sizeof(ignore));
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    memset(&stop, 0, sizeof(stop));
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    // The rest of the process group first, as Ctrl-Z would stop it (a wrapper shell stops too, so the job shell sees
    // the job stopped), while this process ignores the signal: sent to the process, it could be taken by another
    // thread, and the stop could land after this thread has put the handler back and started drawing again.
    sigaction(SIGTSTP, &ignore, &ours);
    kill(0, SIGTSTP);
    // Then this thread, with the default action: a signal sent to a thread is taken by that thread before the call
    // returns, so the process stops here and this thread goes on only once continued. The kernel drops the stop in
    // an orphaned process group.
    sigaction(SIGTSTP, &stop, NULL);
    sigset_t only, before;
    sigemptyset(&only);
    sigaddset(&only, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &only, &before);
    pthread_kill(pthread_self(), SIGTSTP);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (job_handled[index]) {
        sigaction(SIGTSTP, &ours, NULL);
    } else {
        sigaction(SIGTSTP, &previous_job_actions[index], NULL);
    }
    // This stop's own SIGCONT needs no second re-entry.
    atomic_fetch_and(&pending_signals, ~MISCHIEF_SIGNAL_CONTINUE);
}

void mischief_terminal_signals_uninstall(void) {
    for (int i = 0; i < JOB_SIGNAL_COUNT; i++) {
        if (job_handled[i]) {
            sigaction(job_signals[i], &previous_job_actions[i], NULL);
            job_handled[i] = 0;
        }
    }
    if (winch_installed) {
        sigaction(SIGWINCH, &previous_winch, NULL);
        winch_installed = 0;
    }
    if (signals_installed) {
        sigaction(SIGHUP, &previous_hup, NULL);
        sigaction(SIGINT, &previous_int, NULL);
        sigaction(SIGTERM, &previous_term, NULL);
        signals_installed = 0;
    }
    wake_fd = -1;
}

int mischief_terminal_take_signals(void) {
    return atomic_exchange(&pending_signals, 0);
}

// MARK: - Utilities

int mischief_terminal_make_pipe(int fds[2]) {
    return pipe2(fds, O_NONBLOCK | O_CLOEXEC);
}

int mischief_terminal_window_size(int fd, int *columns, int *rows) {
    struct winsize size;
    memset(&size, 0, sizeof(size));
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) {
        return -1;
    }
    *columns = size.ws_col;
    *rows = size.ws_row;
    return 0;
}

void mischief_terminal_name_thread(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof(truncated) - 1);
    truncated[sizeof(truncated) - 1] = 0;
    pthread_setname_np(pthread_self(), truncated);
}
