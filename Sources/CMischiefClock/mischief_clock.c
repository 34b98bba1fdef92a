#include "mischief_clock.h"

#include <stdatomic.h>

typedef int (*clock_function)(clockid_t, struct timespec *);

// Null until system seams are installed: then this object's own slot for clock_gettime may be rebound (it is in the
// program's executable when Mischief is linked statically), so the original is called through this pointer instead.
static _Atomic(clock_function) real_clock = NULL;

int mischief_clock_real_gettime(clockid_t clock, struct timespec *time) {
    clock_function real = atomic_load_explicit(&real_clock, memory_order_acquire);
    if (real != NULL) {
        return real(clock, time);
    }
    return clock_gettime(clock, time);
}

// Written as Swift's `Double(tv_sec) + Double(tv_nsec) * 1e-9` is: two roundings, never one fused multiply-add.
#pragma STDC FP_CONTRACT OFF
double mischief_clock_real_seconds(void) {
    struct timespec time;
    mischief_clock_real_gettime(CLOCK_REALTIME, &time);
    return (double)time.tv_sec + (double)time.tv_nsec * 1e-9;
}

void mischief_clock_set_real(int (*original)(clockid_t, struct timespec *)) {
    atomic_store_explicit(&real_clock, original, memory_order_release);
}
