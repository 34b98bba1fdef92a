#include "mischief_lanes.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

// Marks in `mischief_lane_plus_one` for a thread without a lane: one that may try again, one that is exiting.
#define SHARING 0xFFFFFFFFu
#define EXITED 0xFFFFFFFEu
// Calls a sharing thread makes between two tries at a lane.
#define RETRY_EVERY 4096

__thread unsigned int mischief_lane_plus_one = 0;
static __thread unsigned int calls_until_retry = 0;

// One bit per lane. A lane passes from an exiting thread to the next claimant through this word: the release in
// `lane_release` and the acquire in `try_claim` order the old owner's last counter stores before the new owner's
// first loads, so the new owner continues from them.
static _Atomic unsigned int taken = 0;
static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int have_key = 0;
// How many times each lane was freed: a thread that holds lane L sees its count change only once it exits.
static _Atomic unsigned long releases[MISCHIEF_LANE_COUNT];

static void lane_release(void *value) {
    unsigned int lane = (unsigned int)(uintptr_t)value - 1;
    // Seam calls made later on this thread (from other thread-exit destructors) share, and never claim again.
    mischief_lane_plus_one = EXITED;
    atomic_fetch_add_explicit(&releases[lane], 1, memory_order_relaxed);
    atomic_fetch_and_explicit(&taken, ~(1u << lane), memory_order_release);
}

static void make_key(void) { have_key = pthread_key_create(&key, lane_release) == 0; }

// Takes the lowest free lane, or returns MISCHIEF_LANE_SHARED when there is none.
static unsigned int try_claim(void) {
    pthread_once(&key_once, make_key);
    if (!have_key) return MISCHIEF_LANE_SHARED;
    unsigned int seen = atomic_load_explicit(&taken, memory_order_acquire);
    for (;;) {
        unsigned int lane = 0;
        while (lane < MISCHIEF_LANE_COUNT && (seen & (1u << lane)) != 0) lane++;
        if (lane == MISCHIEF_LANE_COUNT) return MISCHIEF_LANE_SHARED;
        if (atomic_compare_exchange_weak_explicit(&taken, &seen, seen | (1u << lane), memory_order_acq_rel,
                                                  memory_order_acquire)) {
            if (pthread_setspecific(key, (void *)(uintptr_t)(lane + 1)) != 0) {
                atomic_fetch_and_explicit(&taken, ~(1u << lane), memory_order_release);
                return MISCHIEF_LANE_SHARED;
            }
            return lane;
        }
    }
}

unsigned int mischief_lane_claim(void) {
    unsigned int mark = mischief_lane_plus_one;
    if (mark == EXITED) return MISCHIEF_LANE_SHARED;
    if (mark == SHARING && --calls_until_retry != 0) return MISCHIEF_LANE_SHARED;
    unsigned int lane = try_claim();
    if (lane == MISCHIEF_LANE_SHARED) {
        mischief_lane_plus_one = SHARING;
        calls_until_retry = RETRY_EVERY;
    } else {
        mischief_lane_plus_one = lane + 1;
    }
    return lane;
}

unsigned int mischief_lane_owned(void) {
    unsigned int lane = mischief_lane_plus_one - 1;
    return lane < MISCHIEF_LANE_COUNT ? lane : MISCHIEF_LANE_SHARED;
}

unsigned int mischief_lanes_taken(void) { return atomic_load_explicit(&taken, memory_order_acquire); }

unsigned long mischief_lane_releases(unsigned int lane) {
    return lane < MISCHIEF_LANE_COUNT ? atomic_load_explicit(&releases[lane], memory_order_relaxed) : 0;
}
