#ifndef MISCHIEF_SYSTEM_H
#define MISCHIEF_SYSTEM_H

#include <stdint.h>
#include <sys/time.h>
#include <time.h>

/// The wall-clock hooks of the `system.clock` seam: `clock_gettime`, `gettimeofday` and `time`, put in the GOT slots
/// of the libraries system seams rebind. Each calls the original, and when the seam has a behaviour maps the wall
/// clock's answer (CLOCK_REALTIME and CLOCK_REALTIME_COARSE only; monotonic and boot clocks pass unchanged) through
/// the published timeline.
///
/// The hooks allocate nothing, take no lock and never call what they hook through a slot: the originals are kept
/// here, set before any slot is rebound. The timeline is published under a sequence counter (a seqlock): a hook
/// reads it without waiting unless a publish is half done, and then retries. A shift and a stopped clock are also
/// published as one word, which the clock_gettime hook reads in one load, without the counter.

/// How chaos wall-clock time follows real time, in nanoseconds since 1970.
typedef struct {
    /// 0: real (no behaviour); 1: real plus `offset`; 2: stopped at `stopped + offset`;
    /// 3: `chaos_anchor + (real - real_anchor) * factor + offset`.
    int kind;
    /// The shift, with any advance, in nanoseconds.
    int64_t offset;
    /// Kind 2: where time stands.
    int64_t stopped;
    /// Kind 3: the real and chaos times at which dilation began, and its factor.
    int64_t real_anchor;
    int64_t chaos_anchor;
    double factor;
} mischief_system_timeline;

/// The number of wall-clock hooks.
#define MISCHIEF_SYSTEM_CLOCK_HOOKS 3

/// The symbol hook `index` replaces ("clock_gettime", "gettimeofday", "time").
const char *mischief_system_clock_symbol(int index);

/// The hook for `index`.
void *mischief_system_clock_hook(int index);

/// Where the original of `index` is kept: the rebinding writes the real function there before it rebinds a slot.
void **mischief_system_clock_original(int index);

/// Publishes the timeline the hooks follow from now on. Callers publish one at a time.
void mischief_system_clock_publish(const mischief_system_timeline *timeline);

/// Counts the hooks' calls from now on (while a console observes the seam, or a behaviour is applied), or stops.
void mischief_system_clock_set_counting(int on);

/// Calls through the hooks counted so far, and those of them that met a behaviour.
void mischief_system_clock_counts(uint64_t *calls, uint64_t *chaos_calls);

/// `real_nanoseconds` (since 1970) as the published timeline maps it: what a hook answers.
int64_t mischief_system_clock_map(int64_t real_nanoseconds);

#endif
