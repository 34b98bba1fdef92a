#ifndef MISCHIEF_SYSTEM_NET_H
#define MISCHIEF_SYSTEM_NET_H

#include <stdint.h>

/// The network hooks of the `system.net` seam: `getaddrinfo` and `connect`, put in the GOT slots of the libraries
/// system seams rebind (libcurl, Foundation, the executable...).
///
/// While the seam is installed and off (no behaviour, nobody counting), a `connect` costs one atomic load on top of
/// the real call. A `getaddrinfo` costs that too, plus a note of the addresses it answered (see
/// mischief_system_net_hosts_of), so that a rule applied later still knows which host an address belongs to: libcurl
/// resolves once and keeps the answer for a minute. While on, each call asks the decider (a Swift function that runs
/// the seam), then does what it says: the real call, a failure, a hang, another address, after a delay.
///
/// Unlike the wall-clock hooks these allocate and take locks: a lookup or a connection costs far more than that.
/// They never call what they hook through a slot (the originals are kept here), and a call made while the decider
/// runs on the same thread goes straight to the original. Connects of AF_UNIX sockets (Mischief's control socket, its
/// clients') are never decided.

/// What the hooked call is.
enum {
    MISCHIEF_NET_LOOKUP = 0,
    MISCHIEF_NET_CONNECT = 1,
};

/// What the decider says.
enum {
    /// The real call.
    MISCHIEF_NET_REAL = 0,
    /// getaddrinfo fails with EAI_NONAME.
    MISCHIEF_NET_NO_NAME = 1,
    /// connect fails with ECONNREFUSED.
    MISCHIEF_NET_REFUSED = 2,
    /// connect never completes: see mischief_system_net_hang.
    MISCHIEF_NET_HANG = 3,
    /// getaddrinfo answers `address` instead.
    MISCHIEF_NET_RESOLVE = 4,
};

/// One hooked call, as the decider sees it.
typedef struct {
    /// MISCHIEF_NET_LOOKUP or MISCHIEF_NET_CONNECT.
    int operation;
    /// A lookup: the name asked. A connect: the numeric address ("127.0.0.1", "::1").
    const char *host;
    /// A connect: the names lookups answered `host` for, newest first, separated by '\n'; "" when none is known.
    const char *names;
    /// A connect: the port; a lookup: the service when it is a number, else 0.
    int port;
    /// A connect: whether the socket blocks.
    int blocking;
} mischief_system_net_call;

/// What happens to the call.
typedef struct {
    /// One of MISCHIEF_NET_REAL ... MISCHIEF_NET_RESOLVE.
    int action;
    /// Slept before doing it (latency), in nanoseconds.
    int64_t delay_nanoseconds;
    /// MISCHIEF_NET_RESOLVE: the numeric address to answer, NUL-terminated.
    char address[64];
} mischief_system_net_verdict;

/// Decides `call`, writing `verdict` (which arrives as MISCHIEF_NET_REAL with no delay).
typedef void (*mischief_system_net_decider)(const mischief_system_net_call *call, mischief_system_net_verdict *verdict);

/// Sets the decider; calls are decided only while mischief_system_net_set_active(1).
void mischief_system_net_set_decider(mischief_system_net_decider decider);

/// Turns deciding on (a behaviour is applied, or the seam's calls are counted) or off (the real calls, untouched).
void mischief_system_net_set_active(int on);

/// Wakes every connect hanging now: each fails with ETIMEDOUT at once (on uninstall, so no thread is left waiting
/// for a seam that is gone).
void mischief_system_net_release_hangs(void);

/// Sleeps `nanoseconds` of the monotonic clock (a latency), through signals, saturating where an int64_t ends,
/// unless the latencies are released first; returns 1 when released, 0 at the deadline.
int mischief_system_net_wait(int64_t nanoseconds);

/// Wakes every call sleeping through a latency now (a layer of system.net went, or the seams are uninstalled): it
/// goes on at once.
void mischief_system_net_release_latencies(void);

/// The number of network hooks.
#define MISCHIEF_SYSTEM_NET_HOOKS 2

/// The symbol hook `index` replaces ("getaddrinfo", "connect").
const char *mischief_system_net_symbol(int index);

/// The hook for `index`.
void *mischief_system_net_hook(int index);

/// Where the original of `index` is kept: the rebinding writes the real function there before it rebinds a slot.
void **mischief_system_net_original(int index);

/// The names lookups answered `address` (numeric) for, newest first, '\n'-separated, into `buffer` (always
/// NUL-terminated); returns how many. The map keeps the last 256 (name, address) pairs.
int mischief_system_net_hosts_of(const char *address, char *buffer, int capacity);

/// Forgets every (name, address) pair.
void mischief_system_net_forget_hosts(void);

/// The longest a blocking connect hangs when the socket has no SO_SNDTIMEO, in nanoseconds (75 s by default).
void mischief_system_net_set_hang_limit(int64_t nanoseconds);

#endif
