#define _GNU_SOURCE
#include "mischief_system_net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef int (*getaddrinfo_function)(const char *, const char *, const struct addrinfo *, struct addrinfo **);
typedef int (*connect_function)(int, const struct sockaddr *, socklen_t);

// The originals, written by the rebinding (through mischief_system_net_original) before any slot points at a hook.
static void *originals[MISCHIEF_SYSTEM_NET_HOOKS];

static int real_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                            struct addrinfo **result) {
    return ((getaddrinfo_function)originals[0])(node, service, hints, result);
}

static int real_connect(int fd, const struct sockaddr *address, socklen_t length) {
    return ((connect_function)originals[1])(fd, address, length);
}

// Nonzero while a behaviour is applied or the seam's calls are counted: the one load of the path that is off.
static _Atomic int active = 0;
static _Atomic(mischief_system_net_decider) decider = NULL;
// Set while this thread runs the decider: a lookup or connect the seam's machinery makes goes to the original.
static _Thread_local int deciding = 0;
static _Atomic int64_t hang_limit = 75LL * 1000000000LL;

void mischief_system_net_set_decider(mischief_system_net_decider function) {
    atomic_store_explicit(&decider, function, memory_order_release);
}

void mischief_system_net_set_active(int on) {
    atomic_store_explicit(&active, on ? 1 : 0, memory_order_release);
}

void mischief_system_net_set_hang_limit(int64_t nanoseconds) {
    atomic_store_explicit(&hang_limit, nanoseconds, memory_order_relaxed);
}

// MARK: - Which names an address was answered for

// A bounded map: the last 256 (name, address) pairs lookups answered, so a connect, which sees only an address, can
// be matched by host name. The oldest pair goes first when it is full.
#define REMEMBERED 256
static struct {
    char name[256];
    char address[INET6_ADDRSTRLEN];
    uint64_t stamp;
} remembered[REMEMBERED];
static uint64_t stamp = 0;
static pthread_mutex_t remembered_lock = PTHREAD_MUTEX_INITIALIZER;

static int is_numeric(const char *host) {
    unsigned char scratch[sizeof(struct in6_addr)];
    return inet_pton(AF_INET, host, scratch) == 1 || inet_pton(AF_INET6, host, scratch) == 1;
}

/// The numeric text of `address`, and its port; 0, or -1 for a family other than IPv4 and IPv6.
static int address_text(const struct sockaddr *address, char *text, int *port) {
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)address;
        inet_ntop(AF_INET, &in->sin_addr, text, INET6_ADDRSTRLEN);
        *port = ntohs(in->sin_port);
        return 0;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)address;
        // An IPv4 address mapped into IPv6 (::ffff:127.0.0.1) is matched as the IPv4 address it is.
        if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
            inet_ntop(AF_INET, &in6->sin6_addr.s6_addr[12], text, INET6_ADDRSTRLEN);
        } else {
            inet_ntop(AF_INET6, &in6->sin6_addr, text, INET6_ADDRSTRLEN);
        }
        *port = ntohs(in6->sin6_port);
        return 0;
    }
    return -1;
}

static void remember_pair(const char *name, const char *address) {
    size_t slot = 0;
    uint64_t oldest = UINT64_MAX;
    for (size_t i = 0; i < REMEMBERED; i++) {
        if (remembered[i].stamp != 0 && strcmp(remembered[i].address, address) == 0 &&
            strcmp(remembered[i].name, name) == 0) {
            slot = i;  // known: it becomes the newest
            oldest = 0;
            break;
        }
        if (remembered[i].stamp < oldest) {
            oldest = remembered[i].stamp;
            slot = i;
        }
    }
    snprintf(remembered[slot].name, sizeof remembered[slot].name, "%s", name);
    snprintf(remembered[slot].address, sizeof remembered[slot].address, "%s", address);
    remembered[slot].stamp = ++stamp;
}

/// Notes every address `answer` gives for `name`, unless `name` is itself an address.
static void remember(const char *name, const struct addrinfo *answer) {
    if (name == NULL || strlen(name) >= sizeof remembered[0].name || is_numeric(name)) {
        return;
    }
    pthread_mutex_lock(&remembered_lock);
    for (const struct addrinfo *entry = answer; entry != NULL; entry = entry->ai_next) {
        char text[INET6_ADDRSTRLEN];
        int port;
        if (entry->ai_addr != NULL && address_text(entry->ai_addr, text, &port) == 0) {
            remember_pair(name, text);
        }
    }
    pthread_mutex_unlock(&remembered_lock);
}

int mischief_system_net_hosts_of(const char *address, char *buffer, int capacity) {
    if (capacity <= 0) {
        return 0;
    }
    buffer[0] = '\0';
    int found = 0;
    size_t used = 0;
    pthread_mutex_lock(&remembered_lock);
    // Newest first: pick the newest pair not taken yet, until none is left.
    uint64_t below = UINT64_MAX;
    for (;;) {
        size_t best = REMEMBERED;
        for (size_t i = 0; i < REMEMBERED; i++) {
            if (remembered[i].stamp != 0 && remembered[i].stamp < below &&
                strcmp(remembered[i].address, address) == 0 &&
                (best == REMEMBERED || remembered[i].stamp > remembered[best].stamp)) {
                best = i;
            }
        }
        if (best == REMEMBERED) {
            break;
        }
        below = remembered[best].stamp;
        size_t length = strlen(remembered[best].name);
        if (used + length + 2 > (size_t)capacity) {
            break;
        }
        if (used > 0) {
            buffer[used++] = '\n';
        }
        memcpy(buffer + used, remembered[best].name, length + 1);
        used += length;
        found += 1;
    }
    pthread_mutex_unlock(&remembered_lock);
    return found;
}

void mischief_system_net_forget_hosts(void) {
    pthread_mutex_lock(&remembered_lock);
    memset(remembered, 0, sizeof remembered);
    pthread_mutex_unlock(&remembered_lock);
}

// MARK: - Deciding, waiting and hanging

/// Asks the decider about `call`; `verdict` stays MISCHIEF_NET_REAL when there is none.
static void decide(const mischief_system_net_call *call, mischief_system_net_verdict *verdict) {
    memset(verdict, 0, sizeof *verdict);
    mischief_system_net_decider function = atomic_load_explicit(&decider, memory_order_acquire);
    if (function == NULL) {
        return;
    }
    deciding = 1;
    function(call, verdict);
    deciding = 0;
    verdict->address[sizeof verdict->address - 1] = '\0';
}

// Blocking connects that hang wait here until their deadline, or until the hangs are released (uninstall); calls
// sleeping through a latency wait here too, until it ends or the latencies are released (a layer of system.net
// reverted, or uninstall).
static pthread_mutex_t hang_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hang_condition;
static pthread_once_t hang_once = PTHREAD_ONCE_INIT;
static uint64_t hang_generation = 0;
static uint64_t latency_generation = 0;

/// The monotonic time `nanoseconds` from now, saturating at the latest time an int64_t of nanoseconds holds (some
/// 292 years): a latency too long to add never wraps into the past.
static struct timespec monotonic_deadline(int64_t nanoseconds) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t end;
    if (__builtin_add_overflow((int64_t)now.tv_sec * 1000000000 + now.tv_nsec, nanoseconds, &end)) {
        end = INT64_MAX;
    }
    struct timespec until = {.tv_sec = (time_t)(end / 1000000000), .tv_nsec = (long)(end % 1000000000)};
    return until;
}

static void make_hang_condition(void) {
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&hang_condition, &attributes);
    pthread_condattr_destroy(&attributes);
}

void mischief_system_net_release_latencies(void) {
    pthread_once(&hang_once, make_hang_condition);
    pthread_mutex_lock(&hang_lock);
    latency_generation += 1;
    pthread_cond_broadcast(&hang_condition);
    pthread_mutex_unlock(&hang_lock);
}

int mischief_system_net_wait(int64_t nanoseconds) {
    if (nanoseconds <= 0) {
        return 0;
    }
    pthread_once(&hang_once, make_hang_condition);
    struct timespec until = monotonic_deadline(nanoseconds);
    pthread_mutex_lock(&hang_lock);
    uint64_t generation = latency_generation;
    // A signal or a spurious wake-up goes back to waiting; the deadline or a release ends it.
    while (generation == latency_generation) {
        if (pthread_cond_timedwait(&hang_condition, &hang_lock, &until) == ETIMEDOUT) {
            break;
        }
    }
    int released = generation != latency_generation;
    pthread_mutex_unlock(&hang_lock);
    return released;
}

void mischief_system_net_release_hangs(void) {
    pthread_once(&hang_once, make_hang_condition);
    pthread_mutex_lock(&hang_lock);
    hang_generation += 1;
    pthread_cond_broadcast(&hang_condition);
    pthread_mutex_unlock(&hang_lock);
}

/// A blocking connect that never completes: waits until the socket's SO_SNDTIMEO, or the hang limit when it has
/// none, then fails with ETIMEDOUT, as a connect to a host that never answers does in the end. No packet is sent.
static int hang_blocking(int fd) {
    int64_t limit = atomic_load_explicit(&hang_limit, memory_order_relaxed);
    struct timeval timeout = {0, 0};
    socklen_t length = sizeof timeout;
    if (getsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, &length) == 0 &&
        (timeout.tv_sec > 0 || timeout.tv_usec > 0)) {
        limit = (int64_t)timeout.tv_sec * 1000000000 + (int64_t)timeout.tv_usec * 1000;
    }
    pthread_once(&hang_once, make_hang_condition);
    struct timespec until = monotonic_deadline(limit);
    pthread_mutex_lock(&hang_lock);
    uint64_t generation = hang_generation;
    while (generation == hang_generation) {
        if (pthread_cond_timedwait(&hang_condition, &hang_lock, &until) == ETIMEDOUT) {
            break;
        }
    }
    pthread_mutex_unlock(&hang_lock);
    errno = ETIMEDOUT;
    return -1;
}

/// A non-blocking connect that never completes: the socket becomes a listening socket of the same family on the
/// loopback interface, which is never writable (and never readable, as nobody connects to it), and the connect says
/// EINPROGRESS. The caller's own connect timeout then gives up on it, as it would on a host that never answers. No
/// packet is sent. When no such socket can be made, it fails with ETIMEDOUT at once.
static int hang_nonblocking(int fd, int family) {
    int listener = socket(family, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (listener >= 0) {
        int bound;
        if (family == AF_INET6) {
            struct sockaddr_in6 loopback = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT};
            bound = bind(listener, (struct sockaddr *)&loopback, sizeof loopback);
        } else {
            struct sockaddr_in loopback = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
            bound = bind(listener, (struct sockaddr *)&loopback, sizeof loopback);
        }
        int descriptor_flags = fcntl(fd, F_GETFD);
        if (bound == 0 && listen(listener, 1) == 0 &&
            dup3(listener, fd, descriptor_flags >= 0 && (descriptor_flags & FD_CLOEXEC) ? O_CLOEXEC : 0) == fd) {
            close(listener);
            errno = EINPROGRESS;
            return -1;
        }
        close(listener);
    }
    errno = ETIMEDOUT;
    return -1;
}

// MARK: - The hooks

static int hook_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                            struct addrinfo **result) {
    if (atomic_load_explicit(&active, memory_order_acquire) == 0 || deciding || node == NULL) {
        int status = real_getaddrinfo(node, service, hints, result);
        if (status == 0 && !deciding && result != NULL) {
            remember(node, *result);
        }
        return status;
    }
    int port = 0;
    if (service != NULL) {
        char *end = NULL;
        long number = strtol(service, &end, 10);
        if (end != service && *end == '\0' && number > 0 && number < 65536) {
            port = (int)number;
        }
    }
    mischief_system_net_call call = {
        .operation = MISCHIEF_NET_LOOKUP, .host = node, .names = "", .port = port, .blocking = 1};
    mischief_system_net_verdict verdict;
    decide(&call, &verdict);
    mischief_system_net_wait(verdict.delay_nanoseconds);
    int status;
    switch (verdict.action) {
    case MISCHIEF_NET_NO_NAME:
        return EAI_NONAME;
    case MISCHIEF_NET_RESOLVE: {
        // The address asked for, through the real getaddrinfo, so the answer is one freeaddrinfo frees.
        struct addrinfo numeric;
        if (hints != NULL) {
            numeric = *hints;
        } else {
            memset(&numeric, 0, sizeof numeric);
        }
        numeric.ai_flags = (numeric.ai_flags | AI_NUMERICHOST) & ~AI_ADDRCONFIG;
        status = real_getaddrinfo(verdict.address, service, &numeric, result);
        break;
    }
    default:
        status = real_getaddrinfo(node, service, hints, result);
        break;
    }
    if (status == 0 && result != NULL) {
        remember(node, *result);
    }
    return status;
}

static int hook_connect(int fd, const struct sockaddr *address, socklen_t length) {
    if (atomic_load_explicit(&active, memory_order_acquire) == 0 || deciding || address == NULL ||
        (address->sa_family != AF_INET && address->sa_family != AF_INET6)) {
        return real_connect(fd, address, length);
    }
    char host[INET6_ADDRSTRLEN];
    int port = 0;
    address_text(address, host, &port);
    char names[1024];
    mischief_system_net_hosts_of(host, names, sizeof names);
    int flags = fcntl(fd, F_GETFL);
    int blocking = flags < 0 || (flags & O_NONBLOCK) == 0;
    mischief_system_net_call call = {
        .operation = MISCHIEF_NET_CONNECT, .host = host, .names = names, .port = port, .blocking = blocking};
    mischief_system_net_verdict verdict;
    decide(&call, &verdict);
    mischief_system_net_wait(verdict.delay_nanoseconds);
    switch (verdict.action) {
    case MISCHIEF_NET_REFUSED:
        errno = ECONNREFUSED;
        return -1;
    case MISCHIEF_NET_HANG:
        return blocking ? hang_blocking(fd) : hang_nonblocking(fd, address->sa_family);
    default:
        return real_connect(fd, address, length);
    }
}

static const char *const symbols[MISCHIEF_SYSTEM_NET_HOOKS] = {"getaddrinfo", "connect"};

const char *mischief_system_net_symbol(int index) {
    return index >= 0 && index < MISCHIEF_SYSTEM_NET_HOOKS ? symbols[index] : NULL;
}

void *mischief_system_net_hook(int index) {
    switch (index) {
    case 0: return (void *)hook_getaddrinfo;
    case 1: return (void *)hook_connect;
    default: return NULL;
    }
}

void **mischief_system_net_original(int index) {
    return index >= 0 && index < MISCHIEF_SYSTEM_NET_HOOKS ? &originals[index] : NULL;
}
