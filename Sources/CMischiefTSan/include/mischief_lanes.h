#ifndef MISCHIEF_LANES_H
#define MISCHIEF_LANES_H

/// How many threads at a time own a *lane*: in every seam's core, the line of counters with the lane's index is
/// written by that one thread only, so it counts with a plain load and store instead of a locked add.
#define MISCHIEF_LANE_COUNT 12

/// What `mischief_lane()` returns to a thread that owns no lane (all were taken, or the thread is exiting): it
/// counts on the shared lines, with locked adds.
#define MISCHIEF_LANE_SHARED 0xFFFFFFFEu

/// On ELF, the lane's thread-local and the light-entry flag (`mischief_fence.h`) are hidden and the thread-local is
/// initial-exec: every counted or chaos call reads them, and so they are read at a fixed offset from the thread pointer
/// and from the code, not through the global offset table (one instruction each instead of two or three). Both are
/// defined and read in the image Mischief is linked into (its C targets are not products of their own).
#if defined(__ELF__)
#define MISCHIEF_HOT_GLOBAL __attribute__((visibility("hidden")))
#define MISCHIEF_HOT_THREAD_LOCAL __attribute__((visibility("hidden"), tls_model("initial-exec")))
#else
#define MISCHIEF_HOT_GLOBAL
#define MISCHIEF_HOT_THREAD_LOCAL
#endif

/// The calling thread's lane plus one, 0 until its first counted call, or a mark for a thread without a lane.
/// Read only through `mischief_lane()`.
extern __thread unsigned int mischief_lane_plus_one MISCHIEF_HOT_THREAD_LOCAL;

/// The slow part of `mischief_lane()`: claims a free lane for the calling thread on its first call; a thread that
/// found none tries again every few thousand calls. Lock-free, so a child after fork cannot deadlock here. A lane is
/// freed when its thread exits.
unsigned int mischief_lane_claim(void);

/// The calling thread's lane (below MISCHIEF_LANE_COUNT), or MISCHIEF_LANE_SHARED. A thread-local load and a
/// compare once claimed.
static inline __attribute__((always_inline)) unsigned int mischief_lane(void) {
    unsigned int lane = mischief_lane_plus_one - 1;  // unclaimed (0) and the marks wrap past the count
    if (__builtin_expect(lane < MISCHIEF_LANE_COUNT, 1)) return lane;
    return mischief_lane_claim();
}

/// The calling thread's lane if it owns one, else MISCHIEF_LANE_SHARED; never claims one (for tests).
unsigned int mischief_lane_owned(void);

/// The lanes taken now, one bit each (for tests).
unsigned int mischief_lanes_taken(void);

/// How many times `lane` has been freed by an exiting thread (for tests).
unsigned long mischief_lane_releases(unsigned int lane);

#endif
