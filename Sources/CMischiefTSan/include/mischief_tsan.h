#ifndef MISCHIEF_TSAN_H
#define MISCHIEF_TSAN_H

/// Tells ThreadSanitizer that the lock at `address` was just taken. Does nothing unless this C file was built with
/// ThreadSanitizer (`swift build --sanitize=thread` builds C targets with `-fsanitize=thread`).
///
/// Not an inline header function on purpose: Swift's Clang importer compiles header functions without the
/// sanitizer's feature flag, so only a C file sees `__has_feature(thread_sanitizer)`.
void mischief_tsan_acquire(void *address);

/// Tells ThreadSanitizer that the lock at `address` is about to be released.
void mischief_tsan_release(void *address);

/// 1 when built with ThreadSanitizer, else 0.
int mischief_tsan_enabled(void);

#endif
