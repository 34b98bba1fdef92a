#ifndef MISCHIEF_CLOCK_H
#define MISCHIEF_CLOCK_H

#include <time.h>

/// The wall clock as the system keeps it, for Mischief's own readings (the catalogue clock's real time, the time a
/// console's data was taken), which must not see the `system.clock` seam's chaos: while system seams rebind
/// `clock_gettime` in the program's own executable and libraries, this calls the original function, found before any
/// slot was rebound.
int mischief_clock_real_gettime(clockid_t clock, struct timespec *time);

/// `mischief_clock_real_gettime(CLOCK_REALTIME)` in seconds since 1970, as `Date()` reads it. A value, not a structure
/// filled in: a Swift caller that passed a `timespec`'s address had its frame guarded (a stack protector's load and
/// check on every reading of the catalogue clock).
double mischief_clock_real_seconds(void);

/// The function `mischief_clock_real_gettime` calls: `original`, the real `clock_gettime` (as `dlsym(RTLD_NEXT)`
/// finds it), set by system seams before they rebind a slot. Set once; later calls must pass the same function.
void mischief_clock_set_real(int (*original)(clockid_t, struct timespec *));

#endif
