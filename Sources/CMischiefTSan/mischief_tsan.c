#include "mischief_tsan.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MISCHIEF_TSAN 1
#endif
#endif
#if !defined(MISCHIEF_TSAN) && defined(__SANITIZE_THREAD__)
#define MISCHIEF_TSAN 1
#endif

#ifdef MISCHIEF_TSAN
// From the ThreadSanitizer runtime (compiler-rt's tsan_interface.h): a happens-before edge from every release on
// an address to the acquires on it that follow.
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

void mischief_tsan_acquire(void *address) { __tsan_acquire(address); }
void mischief_tsan_release(void *address) { __tsan_release(address); }
int mischief_tsan_enabled(void) { return 1; }
#else
void mischief_tsan_acquire(void *address) { (void)address; }
void mischief_tsan_release(void *address) { (void)address; }
int mischief_tsan_enabled(void) { return 0; }
#endif
