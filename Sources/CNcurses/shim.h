/// Shim that exposes the wide-character ncurses API to Swift.
///
/// SwiftPM drops pkg-config's feature macros, so the wide-character declarations are enabled here before
/// `<ncursesw/curses.h>` is included. Macros and mutable C globals that Swift cannot import (or that Swift 6
/// rejects as not concurrency-safe) are wrapped in `static inline` accessors prefixed `cn_`.
#ifndef MISCHIEF_CNCURSES_SHIM_H
#define MISCHIEF_CNCURSES_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <stdio.h>
#include <stdlib.h>
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

/// `wcwidth` is only declared by glibc under X/Open feature macros; declare it here.
extern int wcwidth(wchar_t c);

/// The C library's idea of a character's column width (-1 for non-printable characters).
static inline int cn_wcwidth(wchar_t c) { return wcwidth(c); }

/// The standard screen of the current terminal.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
/// Number of lines of the current terminal.
static inline int cn_lines(void) { return LINES; }
/// Number of columns of the current terminal.
static inline int cn_cols(void) { return COLS; }
/// Number of colours the terminal supports (valid after `start_color`).
static inline int cn_colors(void) { return COLORS; }
/// Number of colour pairs the terminal supports (valid after `start_color`).
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }

/// Normal attribute.
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
/// Bold attribute.
static inline attr_t cn_a_bold(void) { return A_BOLD; }
/// Reverse-video attribute.
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
/// Dim attribute.
static inline attr_t cn_a_dim(void) { return A_DIM; }
/// Underline attribute.
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }

/// Key code of function key `n` (`KEY_F(n)`).
static inline int cn_key_f(int n) { return KEY_F(n); }

/// The C standard output stream.
static inline FILE *cn_stdout(void) { return stdout; }
/// The C standard input stream.
static inline FILE *cn_stdin(void) { return stdin; }

#endif
