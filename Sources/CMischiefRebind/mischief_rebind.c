// Rebinding GOT slots of loaded shared objects; see include/mischief_rebind.h.
#define _GNU_SOURCE 1
#include "mischief_rebind.h"

#include <errno.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// The machine this code runs on, whose two relocation types fill a GOT slot with the address of a symbol (see
// `slot_types`; `mischief_rebind_scan_dynamic` reads another machine's, for tests).
#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#else
#define HOST_MACHINE EM_AARCH64
#endif
// Both machines are 64-bit only.
#define RELOC_SYMBOL(info) ELF64_R_SYM(info)
#define RELOC_TYPE(info) ELF64_R_TYPE(info)

// MARK: - State

/// An object that holds (or held) rebound slots: restore finds it again by path and checks it is still the same
/// mapping (an object unloaded since, or another loaded at its address, must not be written).
typedef struct {
    char *path;
    uintptr_t base;
    const ElfW(Dyn) *dynamic;
    /// The pages of its RELRO segment that the dynamic linker made read-only: [start, end).
    uintptr_t relro_start, relro_end;
} known_object;

/// One slot written by apply: what it held before the first apply (restore puts it back) and what apply wrote last
/// (a slot holding anything else is no longer ours).
typedef struct {
    void **slot;
    void *saved;
    void *written;
    size_t object;
} slot_record;

/// Everything below is guarded by `lock`.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static known_object *objects = NULL;
static size_t object_count = 0, object_capacity = 0;
static slot_record *records = NULL;
static size_t record_count = 0, record_capacity = 0;
/// dl_iterate_phdr's load and unload counters at the last apply.
static int applied = 0;
static unsigned long long applied_adds = 0, applied_subs = 0;

/// Makes room for one more element in a growable array; 0, or -1 with errno ENOMEM.
static int reserve(void **items, size_t *capacity, size_t count, size_t size) {
    if (count < *capacity) {
        return 0;
    }
    size_t grown = *capacity ? *capacity * 2 : 16;
    void *moved = realloc(*items, grown * size);
    if (moved == NULL) {
        errno = ENOMEM;
        return -1;
    }
    *items = moved;
    *capacity = grown;
    return 0;
}

// MARK: - Walking the loaded objects

/// One object as dl_iterate_phdr showed it. The walk only copies, from the program headers too: after it, nothing
/// keeps the object loaded until it is pinned, and pinning needs the dynamic section's address. The filter, dlopen
/// and the slot writes run after the walk, outside the lock dl_iterate_phdr holds (a dlopen on another thread holding
/// the loader lock and waiting for that one, while we wait for the loader lock, would deadlock).
typedef struct {
    char *path;
    uintptr_t base;
    const ElfW(Dyn) *dynamic;
    /// The pages of its RELRO segment that the dynamic linker made read-only: [start, end).
    uintptr_t relro_start, relro_end;
    /// Whether it holds this code.
    int own;
} loaded_object;

typedef struct {
    loaded_object *items;
    size_t count, capacity;
    unsigned long long adds, subs;
    int counted;
    int failed;
} object_list;

static int list_object(struct dl_phdr_info *info, size_t size, void *data) {
    object_list *list = data;
    if (!list->counted && size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
        list->adds = info->dlpi_adds;
        list->subs = info->dlpi_subs;
        list->counted = 1;
    }
    if (reserve((void **)&list->items, &list->capacity, list->count, sizeof(loaded_object)) != 0) {
        list->failed = 1;
        return 1;
    }
    char *path = strdup(info->dlpi_name ? info->dlpi_name : "");
    if (path == NULL) {
        list->failed = 1;
        return 1;
    }
    loaded_object object = {path, info->dlpi_addr, NULL, 0, 0, 0};
    uintptr_t own = (uintptr_t)(void *)&mischief_rebind_apply;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + header->p_vaddr;
        if (header->p_type == PT_DYNAMIC) {
            object.dynamic = (const ElfW(Dyn) *)start;
        } else if (header->p_type == PT_GNU_RELRO) {
            // The dynamic linker protects whole pages only: from the page holding the segment's start to the page
            // holding its end, that last page left writable (glibc's _dl_protect_relro, musl's reloc_all). Mirrored
            // exactly, so a page the linker left writable is never made read-only here.
            object.relro_start = start & ~(page - 1);
            object.relro_end = (start + header->p_memsz) & ~(page - 1);
        } else if (header->p_type == PT_LOAD && own >= start && own < start + header->p_memsz) {
            // Its own calls to mprotect, dlopen and the rest must reach the real ones.
            object.own = 1;
        }
    }
    list->items[list->count++] = object;
    return 0;
}

static void free_list(object_list *list) {
    for (size_t i = 0; i < list->count; i++) {
        free(list->items[i].path);
    }
    free(list->items);
}

/// The loaded objects now; 0, or -1 with errno ENOMEM.
static int list_objects(object_list *list) {
    memset(list, 0, sizeof(*list));
    dl_iterate_phdr(list_object, list);
    if (list->failed) {
        free_list(list);
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

// MARK: - Reading an object's dynamic section

/// What rebinding needs from one object's dynamic section and program headers.
typedef struct {
    const ElfW(Dyn) *dynamic;
    const ElfW(Sym) *symbols;
    const char *strings;
    size_t strings_size;
    /// The PLT relocations (JUMP_SLOT), REL or RELA as DT_PLTREL says.
    uintptr_t plt_relocations;
    size_t plt_size, plt_entry;
    /// The other relocations (GLOB_DAT among them), in RELA and REL form.
    uintptr_t rela, rel;
    size_t rela_size, rela_entry, rel_size, rel_entry;
    uintptr_t relro_start, relro_end;
    /// The relocation types that fill a slot with a symbol's address (JUMP_SLOT, GLOB_DAT) on the object's machine.
    unsigned long jump_slot_type, glob_dat_type;
} object_view;

/// Sets the JUMP_SLOT and GLOB_DAT types of `machine` (EM_X86_64 or EM_AARCH64) in `view`; -1 for another machine.
static int slot_types(int machine, object_view *view) {
    switch (machine) {
    case EM_X86_64: view->jump_slot_type = R_X86_64_JUMP_SLOT; view->glob_dat_type = R_X86_64_GLOB_DAT; return 0;
    case EM_AARCH64: view->jump_slot_type = R_AARCH64_JUMP_SLOT; view->glob_dat_type = R_AARCH64_GLOB_DAT; return 0;
    default: return -1;
    }
}

static int is_vdso(const char *path) {
    return strcmp(path, "linux-vdso.so.1") == 0 || strcmp(path, "linux-gate.so.1") == 0;
}

/// Whether any of the rebindings is a function this code calls itself. In this code's own object (the executable,
/// in a SwiftPM build) such slots must keep reaching the real functions, so the object is skipped for such a
/// rebinding even when a filter includes it; its other slots (a program's own calls to `time`) may be rebound.
static int rebinds_what_this_code_calls(const mischief_rebinding *rebindings, size_t count) {
    static const char *const used[] = {
        "mprotect", "dlopen", "dlclose", "dlsym", "dlerror", "dlinfo", "dl_iterate_phdr", "malloc", "calloc",
        "realloc", "free", "strdup", "pthread_mutex_lock", "pthread_mutex_unlock", "strcmp", "strncmp", "strlen",
        "strrchr", "memcpy", "memset", "sysconf", "getpagesize", "__errno_location",
    };
    for (size_t r = 0; r < count; r++) {
        for (size_t i = 0; i < sizeof(used) / sizeof(used[0]); i++) {
            if (strcmp(rebindings[r].symbol, used[i]) == 0) {
                return 1;
            }
        }
    }
    return 0;
}

/// The objects whose clocks and calls must stay real unless a filter says otherwise: the C library and dynamic
/// linker (the rest of the process calls through them), Dispatch and Swift Concurrency (timers, deadlines, sleeps)
/// and OpenSSL (certificate validity).
static int is_excluded_by_default(const loaded_object *object) {
    static const char *const prefixes[] = {
        "libc.so.", "ld-linux", "libpthread.so", "libdispatch.so", "libswift_Concurrency.so", "libssl.so",
        "libcrypto.so",
    };
    if (is_vdso(object->path) || object->own) {
        return 1;
    }
    const char *name = strrchr(object->path, '/');
    name = name ? name + 1 : object->path;
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) {
            return 1;
        }
    }
    return 0;
}

/// An address from the dynamic section. glibc relocates these entries in place (they read as absolute addresses),
/// but loaders that keep the dynamic section read-only (the vDSO, musl, some architectures) leave them relative to
/// the base: a value below the base cannot be an address inside the object, so it is one of those.
static uintptr_t dynamic_address(uintptr_t value, uintptr_t base) {
    return value < base ? value + base : value;
}

/// Whether `object` has a dynamic section worth reading: not the vDSO (nothing there calls out through a GOT, and
/// its dynamic section is left unrelocated).
static int has_slots(const loaded_object *object) {
    return object->dynamic != NULL && !is_vdso(object->path);
}

/// Reads the dynamic section of `object`, which must be pinned; 0, or -1 when it lacks a symbol table (nothing to
/// rebind).
static int read_object(const loaded_object *object, object_view *view) {
    memset(view, 0, sizeof(*view));
    view->dynamic = object->dynamic;
    view->relro_start = object->relro_start;
    view->relro_end = object->relro_end;
    slot_types(HOST_MACHINE, view);
    int plt_is_rela = 1;
    for (const ElfW(Dyn) *entry = view->dynamic; entry->d_tag != DT_NULL; entry++) {
        uintptr_t value = entry->d_un.d_ptr;
        switch (entry->d_tag) {
        case DT_SYMTAB: view->symbols = (const ElfW(Sym) *)dynamic_address(value, object->base); break;
        case DT_STRTAB: view->strings = (const char *)dynamic_address(value, object->base); break;
        case DT_STRSZ: view->strings_size = entry->d_un.d_val; break;
        case DT_JMPREL: view->plt_relocations = dynamic_address(value, object->base); break;
        case DT_PLTRELSZ: view->plt_size = entry->d_un.d_val; break;
        case DT_PLTREL: plt_is_rela = entry->d_un.d_val == DT_RELA; break;
        case DT_RELA: view->rela = dynamic_address(value, object->base); break;
        case DT_RELASZ: view->rela_size = entry->d_un.d_val; break;
        case DT_RELAENT: view->rela_entry = entry->d_un.d_val; break;
        case DT_REL: view->rel = dynamic_address(value, object->base); break;
        case DT_RELSZ: view->rel_size = entry->d_un.d_val; break;
        case DT_RELENT: view->rel_entry = entry->d_un.d_val; break;
        default: break;
        }
    }
    view->plt_entry = plt_is_rela ? sizeof(ElfW(Rela)) : sizeof(ElfW(Rel));
    if (view->rela_entry == 0) {
        view->rela_entry = sizeof(ElfW(Rela));
    }
    if (view->rel_entry == 0) {
        view->rel_entry = sizeof(ElfW(Rel));
    }
    if (view->symbols == NULL || view->strings == NULL) {
        return -1;
    }
    return 0;
}

/// Keeps `object` loaded until `unpin`, and checks it is still the mapping that was walked; the handle, or NULL when
/// it was unloaded since (or is not one dlopen can name, such as an object of another dlmopen namespace). dlopen
/// also waits for a dlopen in progress on another thread, so an object is never written while the dynamic linker
/// is still relocating it.
static void *pin(const char *path, uintptr_t base, const ElfW(Dyn) *dynamic) {
    void *handle = dlopen(path[0] ? path : NULL, RTLD_LAZY | RTLD_NOLOAD);
    if (handle == NULL) {
        dlerror(); // Not left for the program's next dlerror() to find.
        return NULL;
    }
    struct link_map *map = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == NULL || map->l_addr != base
        || (const ElfW(Dyn) *)map->l_ld != dynamic) {
        dlerror();
        dlclose(handle);
        return NULL;
    }
    return handle;
}

static void unpin(void *handle) {
    if (handle != NULL) {
        dlclose(handle);
    }
}

/// Called with each GOT slot of a symbol of the rebindings, and which rebinding it is.
typedef int (*slot_visitor)(void **slot, size_t rebinding, void *context);

/// Calls `visit` for each JUMP_SLOT and GLOB_DAT slot in `count` relocations of `entry` bytes at `table` that
/// refers to one of the rebindings' symbols, skipping those in [skip_start, skip_end). Stops at the first nonzero
/// answer of `visit` and returns it.
static int visit_table(const object_view *view, uintptr_t base, uintptr_t table, size_t size, size_t entry,
                       uintptr_t skip_start, uintptr_t skip_end, const mischief_rebinding *rebindings,
                       size_t count, slot_visitor visit, void *context) {
    if (table == 0 || entry == 0) {
        return 0;
    }
    for (uintptr_t at = table; at + entry <= table + size; at += entry) {
        if (at >= skip_start && at < skip_end) {
            continue;
        }
        // A RELA entry begins with the two fields of a REL one.
        const ElfW(Rel) *relocation = (const ElfW(Rel) *)at;
        unsigned long type = RELOC_TYPE(relocation->r_info);
        unsigned long symbol = RELOC_SYMBOL(relocation->r_info);
        if ((type != view->jump_slot_type && type != view->glob_dat_type) || symbol == 0) {
            continue;
        }
        size_t name_offset = view->symbols[symbol].st_name;
        if (view->strings_size != 0 && name_offset >= view->strings_size) {
            continue;
        }
        const char *name = view->strings + name_offset;
        for (size_t i = 0; i < count; i++) {
            if (strcmp(name, rebindings[i].symbol) == 0) {
                int answer = visit((void **)(base + relocation->r_offset), i, context);
                if (answer != 0) {
                    return answer;
                }
                break;
            }
        }
    }
    return 0;
}

/// Calls `visit` for each slot of the rebindings' symbols in an object: its PLT relocations, then its others.
static int visit_slots(const object_view *view, uintptr_t base, const mischief_rebinding *rebindings, size_t count,
                       slot_visitor visit, void *context) {
    uintptr_t plt_end = view->plt_relocations + view->plt_size;
    int answer = visit_table(view, base, view->plt_relocations, view->plt_size, view->plt_entry, 0, 0, rebindings,
                             count, visit, context);
    // Some linkers make DT_RELASZ cover the PLT relocations too (glibc's loader allows for it): those are skipped
    // here, so no slot is seen twice.
    if (answer == 0) {
        answer = visit_table(view, base, view->rela, view->rela_size, view->rela_entry, view->plt_relocations,
                             plt_end, rebindings, count, visit, context);
    }
    if (answer == 0) {
        answer = visit_table(view, base, view->rel, view->rel_size, view->rel_entry, view->plt_relocations, plt_end,
                             rebindings, count, visit, context);
    }
    return answer;
}

// MARK: - Writing slots

static slot_record *find_record(void **slot) {
    for (size_t i = 0; i < record_count; i++) {
        if (records[i].slot == slot) {
            return &records[i];
        }
    }
    return NULL;
}

/// Stores `value` in `slot` with one aligned store, making its page writable for the store when the dynamic linker
/// made it read-only (and read-only again after); 0, or -1 with mprotect's errno.
static int write_slot(void **slot, void *value, uintptr_t relro_start, uintptr_t relro_end) {
    uintptr_t address = (uintptr_t)slot;
    if (address >= relro_start && address < relro_end) {
        long page_size = sysconf(_SC_PAGESIZE);
        void *page = (void *)(address & ~(uintptr_t)(page_size - 1));
        if (mprotect(page, (size_t)page_size, PROT_READ | PROT_WRITE) != 0) {
            return -1;
        }
        __atomic_store_n(slot, value, __ATOMIC_RELEASE);
        if (mprotect(page, (size_t)page_size, PROT_READ) != 0) {
            return -1;
        }
        return 0;
    }
    __atomic_store_n(slot, value, __ATOMIC_RELEASE);
    return 0;
}

/// The record of the object at `base` with `dynamic` (added if new); its index, or -1 with errno ENOMEM.
static long object_index(const char *path, uintptr_t base, const object_view *view) {
    for (size_t i = 0; i < object_count; i++) {
        if (objects[i].base == base && objects[i].dynamic == view->dynamic && strcmp(objects[i].path, path) == 0) {
            return (long)i;
        }
    }
    if (reserve((void **)&objects, &object_capacity, object_count, sizeof(known_object)) != 0) {
        return -1;
    }
    char *copy = strdup(path);
    if (copy == NULL) {
        errno = ENOMEM;
        return -1;
    }
    objects[object_count] = (known_object){copy, base, view->dynamic, view->relro_start, view->relro_end};
    return (long)object_count++;
}

typedef struct {
    const mischief_rebinding *rebindings;
    const object_view *view;
    const char *path;
    uintptr_t base;
    long object;
    int written;
} apply_context;

static int apply_slot(void **slot, size_t rebinding, void *data) {
    apply_context *apply = data;
    void *replacement = apply->rebindings[rebinding].replacement;
    void *current = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (current == replacement) {
        return 0;
    }
    if (apply->object < 0) {
        apply->object = object_index(apply->path, apply->base, apply->view);
        if (apply->object < 0) {
            return -1;
        }
    }
    slot_record *record = find_record(slot);
    if (record == NULL) {
        if (reserve((void **)&records, &record_capacity, record_count, sizeof(slot_record)) != 0) {
            return -1;
        }
        record = &records[record_count++];
        *record = (slot_record){slot, current, current, (size_t)apply->object};
    } else if (current != record->written || record->object != (size_t)apply->object) {
        // Not what we wrote: the object was reloaded, or something else wrote the slot since. What it holds now is
        // what restore must put back.
        record->saved = current;
        record->object = (size_t)apply->object;
    }
    if (write_slot(slot, replacement, apply->view->relro_start, apply->view->relro_end) != 0) {
        return -1;
    }
    record->written = replacement;
    apply->written++;
    return 0;
}

// MARK: - API

int mischief_rebind_apply(const mischief_rebinding *rebindings, size_t count, mischief_rebind_filter filter,
                          void *context) {
    // The originals first, so a replacement never runs before it can reach the real function.
    for (size_t i = 0; i < count; i++) {
        void *real = dlsym(RTLD_NEXT, rebindings[i].symbol);
        if (real == NULL) {
            real = dlsym(RTLD_DEFAULT, rebindings[i].symbol);
        }
        if (real == NULL) {
            dlerror();
            errno = ENOENT;
            return -1;
        }
        // Written only when it changes: applying again must not race the replacements reading it.
        if (rebindings[i].original != NULL && *rebindings[i].original != real) {
            __atomic_store_n(rebindings[i].original, real, __ATOMIC_RELEASE);
        }
    }
    object_list list;
    if (list_objects(&list) != 0) {
        return -1;
    }
    pthread_mutex_lock(&lock);
    int written = 0;
    int failed = 0;
    int error = 0;
    for (size_t i = 0; i < list.count && !failed; i++) {
        const loaded_object *object = &list.items[i];
        if (is_vdso(object->path) || !has_slots(object)
            || (object->own && (filter == NULL || rebinds_what_this_code_calls(rebindings, count)))) {
            continue;
        }
        int included = filter ? filter(object->path, context) != 0 : !is_excluded_by_default(object);
        void *handle = included ? pin(object->path, object->base, object->dynamic) : NULL;
        object_view view;
        if (handle == NULL || read_object(object, &view) != 0) {
            unpin(handle);
            continue;
        }
        apply_context apply = {rebindings, &view, object->path, object->base, -1, 0};
        failed = visit_slots(&view, object->base, rebindings, count, apply_slot, &apply) != 0;
        if (failed) {
            error = errno; // Before dlclose can change it.
        }
        written += apply.written;
        unpin(handle);
    }
    if (!failed) {
        applied = 1;
        applied_adds = list.adds;
        applied_subs = list.subs;
    }
    pthread_mutex_unlock(&lock);
    free_list(&list);
    if (failed) {
        errno = error;
        return -1;
    }
    return written;
}

int mischief_rebind_restore(void) {
    pthread_mutex_lock(&lock);
    int restored = 0;
    int error = 0;
    size_t kept = 0;
    for (size_t o = 0; o < object_count; o++) {
        known_object *object = &objects[o];
        void *handle = pin(object->path, object->base, object->dynamic);
        for (size_t i = 0; i < record_count; i++) {
            slot_record *record = &records[i];
            if (record->object != o) {
                continue;
            }
            // An object unloaded since took its slots with it; a slot that holds something else now is not ours.
            if (handle == NULL || __atomic_load_n(record->slot, __ATOMIC_ACQUIRE) != record->written) {
                record->slot = NULL;
                continue;
            }
            if (write_slot(record->slot, record->saved, object->relro_start, object->relro_end) != 0) {
                error = errno;
                continue;
            }
            record->slot = NULL;
            restored++;
        }
        unpin(handle);
    }
    // Keep only the records that could not be restored (and their objects, at the same indexes).
    for (size_t i = 0; i < record_count; i++) {
        if (records[i].slot != NULL) {
            records[kept++] = records[i];
        }
    }
    record_count = kept;
    if (record_count == 0) {
        for (size_t o = 0; o < object_count; o++) {
            free(objects[o].path);
        }
        object_count = 0;
    }
    pthread_mutex_unlock(&lock);
    if (error != 0) {
        errno = error;
        return -1;
    }
    return restored;
}

static int count_changes(struct dl_phdr_info *info, size_t size, void *data) {
    object_list *list = data;
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
        list->adds = info->dlpi_adds;
        list->subs = info->dlpi_subs;
        list->counted = 1;
    }
    return 1; // The counters are the same in every object's answer: the first one is enough.
}

int mischief_rebind_objects_changed(void) {
    object_list counts;
    memset(&counts, 0, sizeof(counts));
    dl_iterate_phdr(count_changes, &counts);
    pthread_mutex_lock(&lock);
    // Without the counters (a loader older than glibc 2.4), any object may be new.
    int changed = !applied || !counts.counted || counts.adds != applied_adds || counts.subs != applied_subs;
    pthread_mutex_unlock(&lock);
    return changed;
}

typedef struct {
    int slots;
    int rebound;
    size_t capacity;
    void **addresses;
} count_context;

static int count_slot(void **slot, size_t rebinding, void *data) {
    (void)rebinding;
    count_context *counting = data;
    if ((size_t)counting->slots < counting->capacity) {
        counting->addresses[counting->slots] = slot;
    }
    counting->slots++;
    slot_record *record = find_record(slot);
    if (record != NULL && __atomic_load_n(slot, __ATOMIC_ACQUIRE) == record->written) {
        counting->rebound++;
    }
    return 0;
}

typedef struct {
    int slots, rebound, excluded;
} coverage_entry;

void mischief_rebind_coverage(const mischief_rebinding *rebindings, size_t count, mischief_rebind_visit visit,
                              void *context) {
    object_list list;
    if (list_objects(&list) != 0) {
        return;
    }
    coverage_entry *entries = calloc(list.count ? list.count : 1, sizeof(coverage_entry));
    if (entries == NULL) {
        free_list(&list);
        return;
    }
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < list.count; i++) {
        const loaded_object *object = &list.items[i];
        entries[i].excluded = is_excluded_by_default(object);
        if (!has_slots(object)) {
            continue;
        }
        void *handle = pin(object->path, object->base, object->dynamic);
        if (handle == NULL) {
            entries[i].slots = -1; // Unloaded since the walk: not reported.
            continue;
        }
        object_view view;
        if (read_object(object, &view) != 0) {
            unpin(handle);
            continue;
        }
        count_context counting = {0, 0, 0, NULL};
        visit_slots(&view, object->base, rebindings, count, count_slot, &counting);
        entries[i].slots = counting.slots;
        entries[i].rebound = counting.rebound;
        unpin(handle);
    }
    pthread_mutex_unlock(&lock);
    for (size_t i = 0; i < list.count; i++) {
        if (entries[i].slots >= 0) {
            visit(list.items[i].path, entries[i].slots, entries[i].rebound, entries[i].excluded, context);
        }
    }
    free(entries);
    free_list(&list);
}

int mischief_rebind_scan_dynamic(int machine, uintptr_t base, const void *dynamic, const char *symbol, void **slots,
                                 size_t capacity) {
    loaded_object object = {(char *)"", base, dynamic, 0, 0, 0};
    object_view view;
    if (read_object(&object, &view) != 0 || slot_types(machine, &view) != 0) {
        errno = EINVAL;
        return -1;
    }
    mischief_rebinding only = {symbol, NULL, NULL};
    count_context counting = {0, 0, capacity, slots};
    pthread_mutex_lock(&lock);
    visit_slots(&view, base, &only, 1, count_slot, &counting);
    pthread_mutex_unlock(&lock);
    return counting.slots;
}

int mischief_rebind_slots_of(const char *path, const char *symbol, void **slots, size_t capacity) {
    object_list list;
    if (list_objects(&list) != 0) {
        return -1;
    }
    mischief_rebinding only = {symbol, NULL, NULL};
    int found = -1;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < list.count && found < 0; i++) {
        const loaded_object *object = &list.items[i];
        if (strcmp(object->path, path) != 0) {
            continue;
        }
        if (!has_slots(object)) {
            found = 0;
            continue;
        }
        void *handle = pin(object->path, object->base, object->dynamic);
        object_view view;
        if (handle == NULL || read_object(object, &view) != 0) {
            found = handle == NULL ? -1 : 0;
            unpin(handle);
            continue;
        }
        count_context counting = {0, 0, capacity, slots};
        visit_slots(&view, object->base, &only, 1, count_slot, &counting);
        found = counting.slots;
        unpin(handle);
    }
    pthread_mutex_unlock(&lock);
    free_list(&list);
    if (found < 0) {
        errno = ENOENT;
    }
    return found;
}

#else

// Elsewhere (macOS has no GOT to rebind this way; other Linux architectures have other relocation types), every
// call fails with ENOSYS and nothing is ever rebound.

int mischief_rebind_apply(const mischief_rebinding *rebindings, size_t count, mischief_rebind_filter filter,
                          void *context) {
    (void)rebindings;
    (void)count;
    (void)filter;
    (void)context;
    errno = ENOSYS;
    return -1;
}

int mischief_rebind_restore(void) {
    return 0;
}

int mischief_rebind_objects_changed(void) {
    return 0;
}

void mischief_rebind_coverage(const mischief_rebinding *rebindings, size_t count, mischief_rebind_visit visit,
                              void *context) {
    (void)rebindings;
    (void)count;
    (void)visit;
    (void)context;
}

int mischief_rebind_scan_dynamic(int machine, uintptr_t base, const void *dynamic, const char *symbol, void **slots,
                                 size_t capacity) {
    (void)machine;
    (void)base;
    (void)dynamic;
    (void)symbol;
    (void)slots;
    (void)capacity;
    errno = ENOSYS;
    return -1;
}

int mischief_rebind_slots_of(const char *path, const char *symbol, void **slots, size_t capacity) {
    (void)path;
    (void)symbol;
    (void)slots;
    (void)capacity;
    errno = ENOSYS;
    return -1;
}

#endif
