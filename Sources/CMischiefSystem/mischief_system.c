#include "mischief_system.h"

#include "mischief_lanes.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

typedef int (*clock_gettime_function)(clockid_t, struct timespec *);
typedef int (*gettimeofday_function)(struct timeval *, void *);
typedef time_t (*time_function)(time_t *);

// The originals, written by the rebinding (through mischief_system_clock_original) before any slot points at a hook.
static void *originals[MISCHIEF_SYSTEM_CLOCK_HOOKS];

// MARK: - The timeline, under a sequence counter

// `state` is what a hook reads first, in one load: bit 0 set while a behaviour is applied, bit 1 while calls are
// counted. Zero is the path of a seam that is installed and off: the original's answer, untouched and uncounted.
static _Atomic int state = 0;
enum { APPLIED = 1, COUNTING = 2 };

// Odd while a publish is half done.
static _Atomic uint64_t sequence = 0;
static _Atomic int kind = 0;
static _Atomic int64_t offset = 0;
// For the clock_gettime hook's quick paths, one word read in one load, so they take no sequence counter: the kind in
// the top two bits (QUICK_SHIFT: the shift; QUICK_STOPPED: where the stopped clock stands, shift included; 0 or
// QUICK_GENERAL: the general path, under the sequence counter), then 32 bits of whole seconds (rounded down; a
// shift's signed, a stopped clock's since 1970, unsigned), then the 30 bits of nanoseconds past them, so a `timespec`
// needs no division. A shift or a stopped time out of those ranges (past ±68 years, or before 1970 and after 2106)
// takes the general path.
static _Atomic uint64_t quick = 0;
enum { QUICK_SHIFT = 1, QUICK_STOPPED = 2, QUICK_GENERAL = 3 };
#define QUICK_NANOSECONDS_BITS 30

static inline uint64_t quick_word(int kind, uint32_t seconds, int64_t nanoseconds) {
    return (uint64_t)kind << 62 | (uint64_t)seconds << QUICK_NANOSECONDS_BITS | (uint64_t)nanoseconds;
}
static _Atomic int64_t stopped = 0;
static _Atomic int64_t real_anchor = 0;
static _Atomic int64_t chaos_anchor = 0;
static _Atomic uint64_t factor_bits = 0;

static int64_t saturating_add(int64_t a, int64_t b);

// Seconds within which a `timespec` moved by a shift of fewer seconds still holds what the sum in nanoseconds gives:
// nothing there comes near the nanoseconds' range (about 1678 to 2262), which the general path saturates at.
#define SAFE_SECONDS 4000000000LL

// Nanoseconds since 1970 as whole seconds, rounded down, and the nanoseconds past them.
static inline void split_nanoseconds(int64_t value, int64_t *seconds, int64_t *nanoseconds) {
    *seconds = value / 1000000000;
    *nanoseconds = value % 1000000000;
    if (*nanoseconds < 0) {
        *seconds -= 1;
        *nanoseconds += 1000000000;
    }
}

void mischief_system_clock_publish(const mischief_system_timeline *timeline) {
    uint64_t start = atomic_load_explicit(&sequence, memory_order_relaxed);
    atomic_store_explicit(&sequence, start + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&kind, timeline->kind, memory_order_relaxed);
    atomic_store_explicit(&offset, timeline->offset, memory_order_relaxed);
    int64_t seconds, nanoseconds;
    split_nanoseconds(timeline->offset, &seconds, &nanoseconds);
    // What the hook's quick paths need, in one word: a shift's seconds and nanoseconds, or where a stopped clock
    // stands, as a `timespec` holds them (kind 3, and a shift or a stopped time the word cannot hold, take the general
    // path). Stored after the fields the general path reads, and before `sequence` closes: a hook that finds the
    // general kind here reads those fields under the counter.
    uint64_t word = quick_word(QUICK_GENERAL, 0, 0);
    if (timeline->kind == 0) word = 0;
    if (timeline->kind == 1 && seconds >= INT32_MIN && seconds <= INT32_MAX) {
        word = quick_word(QUICK_SHIFT, (uint32_t)(int32_t)seconds, nanoseconds);
    }
    if (timeline->kind == 2) {
        split_nanoseconds(saturating_add(timeline->stopped, timeline->offset), &seconds, &nanoseconds);
        if (seconds >= 0 && seconds <= UINT32_MAX) word = quick_word(QUICK_STOPPED, (uint32_t)seconds, nanoseconds);
    }
    atomic_store_explicit(&stopped, timeline->stopped, memory_order_relaxed);
    atomic_store_explicit(&real_anchor, timeline->real_anchor, memory_order_relaxed);
    atomic_store_explicit(&chaos_anchor, timeline->chaos_anchor, memory_order_relaxed);
    uint64_t bits;
    memcpy(&bits, &timeline->factor, sizeof bits);
    atomic_store_explicit(&factor_bits, bits, memory_order_relaxed);
    atomic_store_explicit(&quick, word, memory_order_relaxed);
    atomic_store_explicit(&sequence, start + 2, memory_order_release);
    if (timeline->kind != 0) {
        atomic_fetch_or_explicit(&state, APPLIED, memory_order_release);
    } else {
        atomic_fetch_and_explicit(&state, ~APPLIED, memory_order_release);
    }
}

// A sum that does not wrap: clamped to the range of the nanoseconds, about ±292 years around 1970, so a shift past
// 2262-04-11 reads as that instant, never as a time in 1692.
static int64_t saturating_add(int64_t a, int64_t b) {
    int64_t sum;
    if (__builtin_add_overflow(a, b, &sum)) {
        return b > 0 ? INT64_MAX : INT64_MIN;
    }
    return sum;
}

static int64_t saturating_subtract(int64_t a, int64_t b) {
    int64_t difference;
    if (__builtin_sub_overflow(a, b, &difference)) {
        return b < 0 ? INT64_MAX : INT64_MIN;
    }
    return difference;
}

// A product that does not overflow: clamped to about ±292 years around 1970, the range of the nanoseconds.
static int64_t scaled(int64_t nanoseconds, double factor) {
    double product = (double)nanoseconds * factor;
    if (product != product) return 0;
    if (product >= 9.2e18) return INT64_MAX;
    if (product <= -9.2e18) return INT64_MIN;
    return (int64_t)product;
}

// One consistent reading of the published timeline.
typedef struct {
    int kind;
    int64_t offset, stopped, real_anchor, chaos_anchor;
    double factor;
} timeline_reading;

static inline __attribute__((always_inline)) void read_timeline(timeline_reading *reading) {
    for (;;) {
        uint64_t before = atomic_load_explicit(&sequence, memory_order_acquire);
        if (before & 1) {
            continue;  // a publish is half done; it is a handful of stores
        }
        reading->kind = atomic_load_explicit(&kind, memory_order_relaxed);
        reading->offset = atomic_load_explicit(&offset, memory_order_relaxed);
        reading->stopped = atomic_load_explicit(&stopped, memory_order_relaxed);
        reading->real_anchor = atomic_load_explicit(&real_anchor, memory_order_relaxed);
        reading->chaos_anchor = atomic_load_explicit(&chaos_anchor, memory_order_relaxed);
        uint64_t bits = atomic_load_explicit(&factor_bits, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&sequence, memory_order_relaxed) != before) {
            continue;
        }
        memcpy(&reading->factor, &bits, sizeof reading->factor);
        return;
    }
}

// `real` (nanoseconds since 1970) as `reading` maps it.
static inline __attribute__((always_inline)) int64_t map_reading(const timeline_reading *reading, int64_t real) {
    switch (reading->kind) {
    case 1: return saturating_add(real, reading->offset);
    case 2: return saturating_add(reading->stopped, reading->offset);
    case 3:
        return saturating_add(
            saturating_add(reading->chaos_anchor, scaled(saturating_subtract(real, reading->real_anchor),
                                                         reading->factor)),
            reading->offset);
    default: return real;
    }
}

int64_t mischief_system_clock_map(int64_t real) {
    timeline_reading reading;
    read_timeline(&reading);
    return map_reading(&reading, real);
}

// MARK: - Counting, on lanes and sharded lines

// A thread that owns a lane (`mischief_lanes.h`: the same lanes Swift seams count on) counts on its own line with a
// plain load and store; others on sixteen shared lines, picked by the calling thread's stack address, with locked adds.
// Calls are counted whenever a behaviour is applied (its chaos calls must not be lost), so a shifted clock must not
// pay a locked add on every reading.
// A call is counted once, as a plain call or a chaos call (one that met a behaviour): the calls are their sum.
typedef struct {
    _Atomic uint64_t plain_calls;
    _Atomic uint64_t chaos_calls;
    char padding[64 - 2 * sizeof(uint64_t)];
} counter_line;

#define SHARDS 16
static counter_line shards[SHARDS] __attribute__((aligned(64)));
static counter_line lanes[MISCHIEF_LANE_COUNT] __attribute__((aligned(64)));

static inline __attribute__((always_inline)) void bump_owned(_Atomic uint64_t *counter) {
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + 1, memory_order_relaxed);
}

static inline __attribute__((always_inline)) void count(int current) {
    unsigned int lane = mischief_lane();
    if (__builtin_expect(lane < MISCHIEF_LANE_COUNT, 1)) {
        bump_owned(current & APPLIED ? &lanes[lane].chaos_calls : &lanes[lane].plain_calls);
        return;
    }
    char here;
    size_t shard = ((uintptr_t)&here >> 12) % SHARDS;
    atomic_fetch_add_explicit(
        current & APPLIED ? &shards[shard].chaos_calls : &shards[shard].plain_calls, 1, memory_order_relaxed);
}

void mischief_system_clock_set_counting(int on) {
    if (on) {
        atomic_fetch_or_explicit(&state, COUNTING, memory_order_relaxed);
    } else {
        atomic_fetch_and_explicit(&state, ~COUNTING, memory_order_relaxed);
    }
}

void mischief_system_clock_counts(uint64_t *calls, uint64_t *chaos_calls) {
    uint64_t all = 0, chaos = 0;
    // The calls are the chaos calls and the plain ones, so never fewer than the chaos calls.
    for (int i = 0; i < SHARDS; i++) chaos += atomic_load_explicit(&shards[i].chaos_calls, memory_order_relaxed);
    for (int i = 0; i < MISCHIEF_LANE_COUNT; i++) {
        chaos += atomic_load_explicit(&lanes[i].chaos_calls, memory_order_relaxed);
    }
    all = chaos;
    for (int i = 0; i < SHARDS; i++) all += atomic_load_explicit(&shards[i].plain_calls, memory_order_relaxed);
    for (int i = 0; i < MISCHIEF_LANE_COUNT; i++) {
        all += atomic_load_explicit(&lanes[i].plain_calls, memory_order_relaxed);
    }
    *calls = all;
    *chaos_calls = chaos;
}

// MARK: - The hooks

// What the general path of the clock_gettime hook answers: `time` (the real clock's answer) mapped through the whole
// timeline. Out of line, so the hook's quick paths keep a small frame.
static __attribute__((noinline)) int map_timespec(struct timespec *time) {
    timeline_reading reading;
    read_timeline(&reading);
    int64_t seconds, nanoseconds;
    split_nanoseconds(map_reading(&reading, (int64_t)time->tv_sec * 1000000000 + time->tv_nsec), &seconds, &nanoseconds);
    time->tv_sec = (time_t)seconds;
    time->tv_nsec = (long)nanoseconds;
    return 0;
}

// The clock_gettime hook with a behaviour applied or calls counted (`current`, non-zero), on a wall clock. Its
// arguments in the hook's order, so the hook jumps here without moving them; only the quick word and `time` live
// across the real clock's call (decoded after it), so the frame saves two registers, not four.
static __attribute__((noinline)) int chaos_clock_gettime(clockid_t clock, struct timespec *time, int current) {
    if (!(current & APPLIED)) {  // counted only
        int result = ((clock_gettime_function)originals[0])(clock, time);
        if (result == 0) count(current);
        return result;
    }
    // One load for the quick kinds: no sequence counter (see `quick`).
    uint64_t word = atomic_load_explicit(&quick, memory_order_relaxed);
    if (word >> 62 == QUICK_STOPPED) {
        // Frozen: where time stands is all there is to read; the real clock is not asked.
        time->tv_sec = (time_t)(uint32_t)(word >> QUICK_NANOSECONDS_BITS);
        time->tv_nsec = (long)(word & ((1ull << QUICK_NANOSECONDS_BITS) - 1));
        count(APPLIED);
        return 0;
    }
    int result = ((clock_gettime_function)originals[0])(clock, time);
    if (result != 0) return result;
    count(APPLIED);
    if (word >> 62 == QUICK_SHIFT && time->tv_sec < SAFE_SECONDS && time->tv_sec > -SAFE_SECONDS) {
        // Shifted: seconds and nanoseconds moved apart, with a carry; what the sum in nanoseconds gives.
        int64_t nanoseconds = (int64_t)(word & ((1ull << QUICK_NANOSECONDS_BITS) - 1)) + time->tv_nsec;
        int64_t seconds = (int64_t)time->tv_sec + (int32_t)(uint32_t)(word >> QUICK_NANOSECONDS_BITS);
        if (nanoseconds >= 1000000000) {
            nanoseconds -= 1000000000;
            seconds += 1;
        }
        time->tv_sec = (time_t)seconds;
        time->tv_nsec = (long)nanoseconds;
        return 0;
    }
    return map_timespec(time);
}

static int hook_clock_gettime(clockid_t clock, struct timespec *time) {
    int current = atomic_load_explicit(&state, memory_order_acquire);
    // Tests in a row, each a branch (written as one condition, they became flag arithmetic on every chaos call).
    if (__builtin_expect(current != 0, 0) && time != NULL) {
        if (clock == CLOCK_REALTIME) return chaos_clock_gettime(clock, time, current);
        if (clock == CLOCK_REALTIME_COARSE) return chaos_clock_gettime(clock, time, current);
    }
    // Off, or a clock it leaves alone: the original in a tail call, so the hook leaves no frame of its own.
    return ((clock_gettime_function)originals[0])(clock, time);
}

static int hook_gettimeofday(struct timeval *time, void *zone) {
    int current = atomic_load_explicit(&state, memory_order_acquire);
    if (__builtin_expect(current == 0, 1) || time == NULL) {
        return ((gettimeofday_function)originals[1])(time, zone);
    }
    int result = ((gettimeofday_function)originals[1])(time, zone);
    if (result != 0) return result;
    count(current);
    if (current & APPLIED) {
        int64_t chaos = mischief_system_clock_map((int64_t)time->tv_sec * 1000000000 + (int64_t)time->tv_usec * 1000);
        int64_t seconds = chaos / 1000000000, nanoseconds = chaos % 1000000000;
        if (nanoseconds < 0) {
            seconds -= 1;
            nanoseconds += 1000000000;
        }
        time->tv_sec = (time_t)seconds;
        time->tv_usec = (suseconds_t)(nanoseconds / 1000);
    }
    return result;
}

static time_t hook_time(time_t *out) {
    time_t now = ((time_function)originals[2])(NULL);
    int current = atomic_load_explicit(&state, memory_order_acquire);
    if (current != 0 && now != (time_t)-1) {
        count(current);
        if (current & APPLIED) {
            int64_t chaos = mischief_system_clock_map((int64_t)now * 1000000000);
            int64_t seconds = chaos / 1000000000;
            if (chaos % 1000000000 < 0) seconds -= 1;
            now = (time_t)seconds;
        }
    }
    if (out != NULL) {
        *out = now;
    }
    return now;
}

static const char *const symbols[MISCHIEF_SYSTEM_CLOCK_HOOKS] = { "clock_gettime", "gettimeofday", "time" };

const char *mischief_system_clock_symbol(int index) {
    return index >= 0 && index < MISCHIEF_SYSTEM_CLOCK_HOOKS ? symbols[index] : NULL;
}

void *mischief_system_clock_hook(int index) {
    switch (index) {
    case 0: return (void *)hook_clock_gettime;
    case 1: return (void *)hook_gettimeofday;
    case 2: return (void *)hook_time;
    default: return NULL;
    }
}

void **mischief_system_clock_original(int index) {
    return index >= 0 && index < MISCHIEF_SYSTEM_CLOCK_HOOKS ? &originals[index] : NULL;
}
