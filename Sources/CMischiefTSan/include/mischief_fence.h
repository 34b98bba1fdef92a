#ifndef MISCHIEF_FENCE_H
#define MISCHIEF_FENCE_H

/// Asymmetric fences for the seam core's freeing protocol (Sources/Mischief/Internal/SeamCore.swift).
///
/// A chaos call announces itself (a store to its lane's `entered` counter) and then reloads the seam's word; the
/// registry, after changing the word, reads the counters to learn whether a replaced behaviour may be freed. The
/// announcement must not be ordered after the reload, which on its own costs the call a full barrier (a locked add).
/// With asymmetric fences the call pays only a compiler barrier, and the registry pays instead, rarely: before it
/// reads the counters it has the kernel run a full barrier on every thread of the process (Linux `membarrier`,
/// `MEMBARRIER_CMD_PRIVATE_EXPEDITED`), so each call's announcement is either visible to it or made before a
/// reload that sees the new word. The same scheme as userspace RCU's membarrier flavour.

#include "mischief_lanes.h"

/// Read only through `mischief_light_entry()`.
extern int mischief_light_entry_flag MISCHIEF_HOT_GLOBAL;

/// 1 when calls may announce themselves with a plain store (the process registered for expedited membarriers when
/// it loaded), 0 when they must use a locked add: no membarrier (another system, an old kernel, a sandbox that
/// forbids it, `MISCHIEF_LIGHT_ENTRY=0`) or a ThreadSanitizer build, which cannot see the kernel's barriers. Set
/// before `main`, never changed after.
static inline __attribute__((always_inline)) int mischief_light_entry(void) {
    return __atomic_load_n(&mischief_light_entry_flag, __ATOMIC_RELAXED);
}

/// Runs a full memory barrier on every running thread of the process. Returns 0 on success, -1 when it could not,
/// in which case the caller must not conclude that a phase has drained. Only call it when `mischief_light_entry()`.
int mischief_heavy_fence(void);

/// Orders the memory accesses before it before those after it for the compiler only: no instruction.
static inline __attribute__((always_inline)) void mischief_compiler_fence(void) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

#endif
