#include "mischief_system.h"

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
static _Atomic int64_t stopped = 0;
static _Atomic int64_t real_anchor = 0;
static _Atomic int64_t chaos_anchor = 0;
static _Atomic uint64_t factor_bits = 0;

void mischief_system_clock_publish(const mischief_system_timeline *timeline) {
    uint64_t start = atomic_load_explicit(&sequence, memory_order_relaxed);
    atomic_store_explicit(&sequence, start + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&kind, timeline->kind, memory_order_relaxed);
    atomic_store_explicit(&offset, timeline->offset, memory_order_relaxed);
    atomic_store_explicit(&stopped, timeline->stopped, memory_order_relaxed);
    atomic_store_explicit(&real_anchor, timeline->real_anchor, memory_order_relaxed);
    atomic_store_explicit(&chaos_anchor, timeline->chaos_anchor, memory_order_relaxed);
    uint64_t bits;
    memcpy(&bits, &timeline->factor, sizeof bits);
    atomic_store_explicit(&factor_bits, bits, memory_order_relaxed);
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

int64_t mischief_system_clock_map(int64_t real) {
    for (;;) {
        uint64_t before = atomic_load_explicit(&sequence, memory_order_acquire);
        if (before & 1) {
            continue;  // a publish is half done; it is a handful of stores
        }
        int k = atomic_load_explicit(&kind, memory_order_relaxed);
        int64_t shift = atomic_load_explicit(&offset, memory_order_relaxed);
        int64_t at = atomic_load_explicit(&stopped, memory_order_relaxed);
        int64_t real0 = atomic_load_explicit(&real_anchor, memory_order_relaxed);
        int64_t chaos0 = atomic_load_explicit(&chaos_anchor, memory_order_relaxed);
        uint64_t bits = atomic_load_explicit(&factor_bits, memory_order_relaxed);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&sequence, memory_order_relaxed) != before) {
            continue;
        }
        double factor;
        memcpy(&factor, &bits, sizeof factor);
        switch (k) {
        case 1: return saturating_add(real, shift);
        case 2: return saturating_add(at, shift);
        case 3: return saturating_add(saturating_add(chaos0, scaled(saturating_subtract(real, real0), factor)), shift);
        default: return real;
        }
    }
}

// MARK: - Counting, on sharded lines

// Sixteen cache lines, picked by the calling thread's stack address, so threads reading the clock at once rarely
// share a line.
#define SHARDS 16
static struct {
    _Atomic uint64_t calls;
    _Atomic uint64_t chaos_calls;
    char padding[64 - 2 * sizeof(uint64_t)];
} shards[SHARDS] __attribute__((aligned(64)));

static void count(int current) {
    char here;
    size_t shard = ((uintptr_t)&here >> 12) % SHARDS;
    atomic_fetch_add_explicit(&shards[shard].calls, 1, memory_order_relaxed);
    if (current & APPLIED) {
        atomic_fetch_add_explicit(&shards[shard].chaos_calls, 1, memory_order_relaxed);
    }
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
    for (int i = 0; i < SHARDS; i++) {
        all += atomic_load_explicit(&shards[i].calls, memory_order_relaxed);
        chaos += atomic_load_explicit(&shards[i].chaos_calls, memory_order_relaxed);
    }
    *calls = all;
    *chaos_calls = chaos;
}

// MARK: - The hooks

static int is_wall_clock(clockid_t clock) {
    return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE;
}

static int hook_clock_gettime(clockid_t clock, struct timespec *time) {
    int result = ((clock_gettime_function)originals[0])(clock, time);
    int current = atomic_load_explicit(&state, memory_order_acquire);
    if (current == 0 || result != 0 || !is_wall_clock(clock) || time == NULL) {
        return result;
    }
    count(current);
    if (current & APPLIED) {
        int64_t chaos = mischief_system_clock_map((int64_t)time->tv_sec * 1000000000 + time->tv_nsec);
        int64_t seconds = chaos / 1000000000, nanoseconds = chaos % 1000000000;
        if (nanoseconds < 0) {
            seconds -= 1;
            nanoseconds += 1000000000;
        }
        time->tv_sec = (time_t)seconds;
        time->tv_nsec = (long)nanoseconds;
    }
    return result;
}

static int hook_gettimeofday(struct timeval *time, void *zone) {
    int result = ((gettimeofday_function)originals[1])(time, zone);
    int current = atomic_load_explicit(&state, memory_order_acquire);
    if (current == 0 || result != 0 || time == NULL) {
        return result;
    }
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
