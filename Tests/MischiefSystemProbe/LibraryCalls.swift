import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lookups and connections made by libraries rather than by the probe's own code: under ThreadSanitizer its runtime is
/// linked into the executable and defines `connect`, `getaddrinfo` and the clock functions itself (its interceptors),
/// so the executable has no slot for them and only libraries' calls can be rebound there.
enum LibraryCalls {
    private typealias Initialize = @convention(c) () -> OpaquePointer?
    private typealias SetString = @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?) -> Int32
    private typealias SetLong = @convention(c) (OpaquePointer?, Int32, Int) -> Int32
    private typealias Perform = @convention(c) (OpaquePointer?) -> Int32
    private typealias Cleanup = @convention(c) (OpaquePointer?) -> Void
    private typealias GlobalInitialize = @convention(c) (Int) -> Int32

    private struct Curl: @unchecked Sendable {
        let initialize: Initialize
        let setString: SetString
        let setLong: SetLong
        let perform: Perform
        let cleanup: Cleanup
    }

    /// libcurl's easy API, from the copy FoundationNetworking loaded; nil when it is not loaded. `curl_easy_setopt`
    /// is variadic: it is called with one pointer or one integer, which the x86_64 and aarch64 conventions pass as a
    /// plain call would.
    private static let curl: Curl? = {
        guard let handle = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_NOLOAD),
            let initialize = dlsym(handle, "curl_easy_init"), let set = dlsym(handle, "curl_easy_setopt"),
            let perform = dlsym(handle, "curl_easy_perform"), let cleanup = dlsym(handle, "curl_easy_cleanup"),
            let global = dlsym(handle, "curl_global_init")
        else { return nil }
        _ = unsafeBitCast(global, to: GlobalInitialize.self)(3)  // CURL_GLOBAL_ALL, once, before any thread uses it
        return Curl(
            initialize: unsafeBitCast(initialize, to: Initialize.self),
            setString: unsafeBitCast(set, to: SetString.self),
            setLong: unsafeBitCast(set, to: SetLong.self), perform: unsafeBitCast(perform, to: Perform.self),
            cleanup: unsafeBitCast(cleanup, to: Cleanup.self))
    }()

    /// Loads libcurl's functions and runs its global initialisation; call once before the threads start.
    static func prepare() -> Bool { curl != nil }

    /// libcurl connects to 127.0.0.1:`port` and stops there (`CURLOPT_CONNECT_ONLY`): its `CURLcode` (0 connected,
    /// 7 could not connect), or -1 without libcurl.
    static func curlConnect(port: Int) -> Int32 {
        guard let curl, let easy = curl.initialize() else { return -1 }
        defer { curl.cleanup(easy) }
        _ = curl.setString(easy, 10_002, "http://127.0.0.1:\(port)/")  // CURLOPT_URL
        _ = curl.setLong(easy, 141, 1)  // CURLOPT_CONNECT_ONLY
        _ = curl.setLong(easy, 99, 1)  // CURLOPT_NOSIGNAL
        _ = curl.setLong(easy, 156, 5_000)  // CURLOPT_CONNECTTIMEOUT_MS
        return curl.perform(easy)
    }

    /// Foundation looks `host` up (`Host(name:).addresses`, getaddrinfo in libFoundation): whether it found any.
    static func foundationResolves(_ host: String) -> Bool {
        !Host(name: host).addresses.isEmpty
    }
}
