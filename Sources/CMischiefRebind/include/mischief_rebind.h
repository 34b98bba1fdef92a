/// Rebinds the GOT slots of loaded shared objects: the Linux counterpart of swizzling (fishhook, plthook), the
/// foundation of Mischief's system seams (issue 30).
///
/// A call from a shared object to a function of another goes through a slot of its global offset table (GOT): a
/// JUMP_SLOT relocation for a call through the PLT, a GLOB_DAT one for a call or an address taken through the GOT
/// (`-fno-plt`, `&time`). The dynamic linker writes the real address into the slot, at load time (`-z now`) or at
/// the first call (lazy binding, where the slot holds the address of the PLT stub until then). Pointing the slot at
/// another function changes what that object's calls reach, and only that object's: a library's calls to
/// `clock_gettime` can be shifted by a day while the rest of the process keeps the real clock.
///
/// Apply, restore, coverage and the slot listing walk the loaded objects with dl_iterate_phdr, take one process-wide
/// mutex, and keep each object they read or write loaded while they do (a dlopen RTLD_NOLOAD of it, which also waits
/// for a dlopen in progress on another thread to finish relocating). A slot is written with one aligned pointer
/// store, so a call on another thread reaches either the old function or the new one. Slots in an object's RELRO
/// segment, which the dynamic linker makes read-only after relocating (all of the GOT with `-z relro -z now`), are
/// made writable for the store and read-only again at once.
///
/// By default some objects are never rebound: the C library and the dynamic linker (libc.so.6, ld-linux*,
/// libpthread), libdispatch and libswift_Concurrency (their timers and deadlines must keep the real clock), libssl
/// and libcrypto (certificate validity is checked against the real time), and the object holding this code. The
/// vDSO is never rebound. This code's own object is rebound only when a filter includes it, and never for a symbol
/// this code calls itself (mprotect, dlopen, malloc and the like), which must keep reaching the real functions. In
/// a SwiftPM build this C target is linked into the executable, so "this code's own object" is the main executable,
/// whose own calls (a program's `time()`) a filter may well want.
///
/// Not for use from a library constructor (it would wait for the loader lock that thread already holds, under the
/// mutex another thread may hold), nor from a replacement function (apply and restore take the mutex and call
/// malloc, mprotect and the loader). Linux only, on x86_64 and aarch64; elsewhere every call fails with ENOSYS.
#ifndef MISCHIEF_REBIND_H
#define MISCHIEF_REBIND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One symbol to rebind: every GOT slot (JUMP_SLOT and GLOB_DAT relocations) that refers to `symbol` in the objects
/// chosen is pointed at `replacement`. `original`, when not NULL, receives the real function before any slot is
/// written: dlsym(RTLD_NEXT, symbol), else dlsym(RTLD_DEFAULT, symbol); never the value of a slot, which for a
/// lazily bound one may still be the PLT stub.
typedef struct {
    const char *symbol;
    void *replacement;
    void **original;
} mischief_rebinding;

/// Decides which loaded objects are rebound: given an object's path (its dlpi_name; "" for the main executable),
/// returns nonzero to include it. Called with the mutex held: it must not call back into this API.
typedef int (*mischief_rebind_filter)(const char *path, void *context);

/// Points every slot of `rebindings` in the objects chosen by `filter` at its replacement. A NULL filter chooses
/// every object but the ones excluded by default; a filter decides alone, except that the vDSO is always skipped,
/// and so is this code's own object when a rebinding names a function this code calls. May be called again, after a dlopen say: a slot that already holds its replacement
/// is left as it is, a slot rebound before keeps the value it held before the first apply (restore puts that one
/// back), and a new slot is rebound. Returns the number of slots written, or -1 with errno set: ENOENT when a symbol
/// is not found by dlsym (nothing is written then), or mprotect's error (slots written before stay recorded, so
/// restore puts them back).
int mischief_rebind_apply(const mischief_rebinding *rebindings, size_t count, mischief_rebind_filter filter,
                          void *context);

/// Puts back in every slot rebound the exact value it held before (a lazily bound slot gets its PLT stub back), the
/// pages of read-only slots read-only again. A slot that no longer holds what apply wrote (something else wrote it
/// since, or the dynamic linker when a lazy binding on another thread raced the apply) is left alone, and so are the
/// slots of an object unloaded since. Returns the number of slots restored, or -1 with errno set when mprotect
/// failed for one (those stay recorded, so a later call tries again).
int mischief_rebind_restore(void);

/// Whether objects were loaded or unloaded since the last apply (dl_iterate_phdr's dlpi_adds or dlpi_subs moved),
/// so a caller can apply again to cover a library dlopen'ed since. Nonzero before the first apply.
int mischief_rebind_objects_changed(void);

/// What coverage reports for one loaded object: its path ("" for the main executable), how many slots of the given
/// symbols it has, how many of them hold what apply wrote, and whether it is excluded by default (always so for the
/// vDSO and this code's own object).
typedef void (*mischief_rebind_visit)(const char *path, int slots, int rebound, int excluded, void *context);

/// Calls `visit` once for each loaded object, after the walk, outside the mutex (so `visit` may call apply). Only
/// `symbol` of each rebinding is read.
void mischief_rebind_coverage(const mischief_rebinding *rebindings, size_t count, mischief_rebind_visit visit,
                              void *context);

/// For tests and tools: the addresses of the GOT slots for `symbol` in the loaded object whose path is exactly
/// `path` ("" for the main executable), excluded or not. Writes up to `capacity` of them to `slots` and returns how
/// many there are (which may be more), or -1 with errno ENOENT when no such object is loaded.
int mischief_rebind_slots_of(const char *path, const char *symbol, void **slots, size_t capacity);

/// For tests: reads a dynamic section that no loader made, as the relocations of `machine` (62 for x86_64, 183 for
/// aarch64: the ELF EM_ numbers), so both machines' slot types are checked on either. `dynamic` is an array of
/// (tag, value) pairs ending with DT_NULL whose addresses are absolute or relative to `base`, as a loader leaves them;
/// every slot it names must be readable memory at `base` + its offset. Writes up to `capacity` slot addresses of
/// `symbol` to `slots` and returns how many there are, or -1 with errno EINVAL (no symbol table, or another machine).
int mischief_rebind_scan_dynamic(int machine, uintptr_t base, const void *dynamic, const char *symbol, void **slots,
                                 size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
