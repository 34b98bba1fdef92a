// Async-signal-safe terminal restoration and signal forwarding; see include/mischief_terminal.h.
#define _GNU_SOURCE 1
#include "mischief_terminal.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

// MARK: - Crash restoration

/// Leave the alternate screen, reset the keypad/cursor-key modes, show the cursor, reset attributes, new line.
static const char reset_sequence[] = "\033[?1049l\033[?1l\033>\033[?25h\033[0m\r\n";

static const int crash_signals[] = { SIGSEGV, SIGILL, SIGBUS, SIGABRT, SIGTRAP, SIGFPE };
#define CRASH_SIGNAL_COUNT ((int)(sizeof(crash_signals) / sizeof(crash_signals[0])))

static struct sigaction previous_crash_actions[CRASH_SIGNAL_COUNT];
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
    } else {
        // Default action: the re-raised signal is delivered once this handler returns (a fault would also
        // simply recur when the faulting instruction is re-executed).
        raise(sig);
    }
}

int mischief_terminal_crash_install(int tty_fd) {
    if (crash_installed) {
        return 0;
    }
    saved_tty_fd = tty_fd;
    termios_saved = 0;
    if (tcgetattr(tty_fd, &saved_termios) == 0) {
        termios_saved = 1;
    }
    crash_restored = 0;
    for (int i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_sigaction = crash_handler;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        if (sigaction(crash_signals[i], &action, &previous_crash_actions[i]) != 0) {
            int error = errno;
            for (int j = 0; j < i; j++) {
                sigaction(crash_signals[j], &previous_crash_actions[j], NULL);
            }
            errno = error;
            return -1;
        }
    }
    crash_installed = 1;
    return 0;
}

void mischief_terminal_crash_uninstall(void) {
    if (!crash_installed) {
        return;
    }
    for (int i = 0; i < CRASH_SIGNAL_COUNT; i++) {
        sigaction(crash_signals[i], &previous_crash_actions[i], NULL);
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
    default: return 0;
    }
}

static void forward_handler(int sig, siginfo_t *info, void *context) {
    int saved_errno = errno;
    atomic_fetch_or(&pending_signals, signal_bit(sig));
    int fd = wake_fd;
    if (fd >= 0) {
        char byte = (char)sig;
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
    }
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

void mischief_terminal_signals_uninstall(void) {
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
