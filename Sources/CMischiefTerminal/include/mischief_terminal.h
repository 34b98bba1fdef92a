/// Async-signal-safe terminal restoration and signal forwarding for Mischief's full-screen console.
///
/// Crash handling: `mischief_terminal_crash_install` saves the tty's termios and installs handlers for the signals
/// whose default action dumps core (SIGSEGV, SIGILL, SIGBUS, SIGABRT, SIGTRAP, SIGFPE, SIGSYS, SIGQUIT, SIGXCPU,
/// SIGXFSZ; not one the program ignores). On such a signal the handler writes a fixed reset sequence to the tty,
/// restores the saved termios, reinstates the previously installed handler (normally the Swift runtime's
/// backtracer) and hands the signal to it with the original siginfo and context. When that handler returns and
/// leaves the default action in place (the backtracer does, expecting a fault to recur), the handler re-raises the
/// signal under the default action, so a signal sent with kill(2) ends the process too, with that signal as its
/// status. When a handler of the program's own returns and stays, the signal was handled: the crash handler is
/// installed again and the terminal thread is woken with `MISCHIEF_SIGNAL_CONTINUE` to take the terminal back.
/// The first install also registers an atexit(3) handler that restores the terminal the same way when the process
/// exits while the handlers are installed (a `crash` behaviour exits on purpose; so may the program itself).
///
/// Job control: `mischief_terminal_job_control_install` catches SIGTSTP and SIGCONT (pending bits
/// `MISCHIEF_SIGNAL_SUSPEND`/`CONTINUE`; the terminal thread leaves curses, calls `mischief_terminal_stop_self`, and
/// takes the terminal again) and ignores SIGUSR1/SIGUSR2 while their action is the default (which would kill the
/// process with the terminal in raw mode).
///
/// Signal forwarding: `mischief_terminal_signals_install` catches SIGINT, SIGTERM and SIGHUP (so they do not
/// kill the process), and `mischief_terminal_winch_install` catches SIGWINCH (chaining to the handler installed
/// before, normally ncurses'). Each handler records the signal in a pending bit set and writes one byte to a
/// wake-up pipe so a thread blocked in `poll` wakes up and calls `mischief_terminal_take_signals`.
#ifndef MISCHIEF_TERMINAL_H
#define MISCHIEF_TERMINAL_H

#ifdef __cplusplus
extern "C" {
#endif

/// Pending-signal bit for SIGHUP.
#define MISCHIEF_SIGNAL_HANGUP 1
/// Pending-signal bit for SIGINT.
#define MISCHIEF_SIGNAL_INTERRUPT 2
/// Pending-signal bit for SIGTERM.
#define MISCHIEF_SIGNAL_TERMINATE 4
/// Pending-signal bit for SIGWINCH.
#define MISCHIEF_SIGNAL_WINCH 8
/// Pending-signal bit for SIGTSTP: leave the terminal to the shell and stop.
#define MISCHIEF_SIGNAL_SUSPEND 16
/// Pending-signal bit for SIGCONT (and for a crash signal a handler of the program's own dealt with): take the
/// terminal again.
#define MISCHIEF_SIGNAL_CONTINUE 32

/// Saves the termios of `tty_fd` and installs the crash handlers. Returns 0, or -1 with errno set.
int mischief_terminal_crash_install(int tty_fd);

/// Restores the crash handlers that were installed before `mischief_terminal_crash_install`.
void mischief_terminal_crash_uninstall(void);

/// Restores the termios saved by `mischief_terminal_crash_install` (no-op if nothing was saved).
void mischief_terminal_restore_termios(void);

/// Catches SIGINT, SIGTERM and SIGHUP, waking `wake_fd`. Returns 0, or -1 with errno set.
int mischief_terminal_signals_install(int wake_fd);

/// Catches SIGWINCH, waking the fd given to `mischief_terminal_signals_install` and chaining to the previous
/// handler. Returns 0, or -1 with errno set.
int mischief_terminal_winch_install(void);

/// Catches SIGTSTP and SIGCONT, waking `wake_fd` (unless the fd given to `mischief_terminal_signals_install` is
/// set), and ignores SIGUSR1 and SIGUSR2 while their action is the default. Returns 0, or -1 with errno set.
int mischief_terminal_job_control_install(int wake_fd);

/// Stops the process group as SIGTSTP's default action would, returning once the process is continued (at once
/// in an orphaned process group, where the kernel drops the stop). Call after giving the terminal back.
void mischief_terminal_stop_self(void);

/// Restores the SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT, SIGUSR1 and SIGUSR2 actions that were
/// installed before.
void mischief_terminal_signals_uninstall(void);

/// Returns and clears the pending-signal bit set (`MISCHIEF_SIGNAL_*`).
int mischief_terminal_take_signals(void);

/// Creates a non-blocking, close-on-exec pipe. Returns 0, or -1 with errno set.
int mischief_terminal_make_pipe(int fds[2]);

/// Reads the window size of `fd`. Returns 0, or -1 with errno set.
int mischief_terminal_window_size(int fd, int *columns, int *rows);

/// Names the calling thread (truncated to 15 bytes) for debuggers and `top -H`.
void mischief_terminal_name_thread(const char *name);

#ifdef __cplusplus
}
#endif

#endif
