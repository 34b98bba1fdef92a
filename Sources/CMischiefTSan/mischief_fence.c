#include "mischief_fence.h"

#if defined(__linux__)
#include <linux/membarrier.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MISCHIEF_FENCE_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define MISCHIEF_FENCE_TSAN 1
#endif

int mischief_light_entry_flag = 0;

#if defined(__linux__) && !defined(MISCHIEF_FENCE_TSAN)
static long membarrier(int command) { return syscall(__NR_membarrier, command, 0, 0); }

// Registers the process for expedited private membarriers before `main`, so the flag never changes while seams
// are called (MISCHIEF_LIGHT_ENTRY=0 keeps the locked add, to compare the two).
__attribute__((constructor)) static void register_membarrier(void) {
    const char *setting = getenv("MISCHIEF_LIGHT_ENTRY");
    if (setting != 0 && setting[0] == '0') return;
    long supported = membarrier(MEMBARRIER_CMD_QUERY);
    if (supported < 0 || (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return;
    if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0) return;
    __atomic_store_n(&mischief_light_entry_flag, 1, __ATOMIC_RELAXED);
}

int mischief_heavy_fence(void) { return membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0 ? 0 : -1; }
#else
int mischief_heavy_fence(void) { return -1; }
#endif
