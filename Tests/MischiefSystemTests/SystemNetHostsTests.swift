import CMischiefSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The hooks' map of the names lookups answered each address for, which lets a connect (that sees only an address)
/// match a host name. The getaddrinfo hook is called directly, as a function: no slot is rebound, and with the seam
/// off it only does the real lookup and notes the answer.
@Suite(.serialized) struct SystemNetHostsTests {
    typealias GetAddrInfo =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<addrinfo>?,
            UnsafeMutablePointer<UnsafeMutablePointer<addrinfo>?>?
        ) -> Int32

    /// The getaddrinfo hook, with glibc's own getaddrinfo as its original (as the rebinding would write it).
    static let hook: GetAddrInfo = {
        mischief_system_net_original(0).pointee = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getaddrinfo")
        return unsafeBitCast(mischief_system_net_hook(0), to: GetAddrInfo.self)
    }()

    /// Looks `name` up for IPv4 through the hook (the seam off); returns whether it answered.
    static func lookUp(_ name: String) -> Bool {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = hook(name, "80", &hints, &result)
        if let result { freeaddrinfo(result) }
        return status == 0
    }

    /// The names the map holds for `address`, newest first.
    static func names(of address: String, capacity: Int32 = 1024) -> [String] {
        var buffer = [CChar](repeating: 0, count: Int(capacity))
        let count = mischief_system_net_hosts_of(address, &buffer, capacity)
        let text = String(cString: buffer)
        let names = text.isEmpty ? [] : text.split(separator: "\n").map(String.init)
        #expect(names.count == Int(count))
        return names
    }

    @Test func aLookupNotesItsAnswerAndForgettingClearsIt() throws {
        mischief_system_net_forget_hosts()
        #expect(Self.names(of: "127.0.0.1").isEmpty)
        // localhost is answered from /etc/hosts: no packet leaves the machine.
        try #require(Self.lookUp("localhost"), "localhost resolves for IPv4 here")
        #expect(Self.names(of: "127.0.0.1") == ["localhost"])
        #expect(Self.names(of: "10.0.0.1").isEmpty)
        // Looked up again, it is noted once.
        _ = Self.lookUp("localhost")
        #expect(Self.names(of: "127.0.0.1") == ["localhost"])
        mischief_system_net_forget_hosts()
        #expect(Self.names(of: "127.0.0.1").isEmpty)
    }

    @Test func aNumericLookupNotesNoName() {
        mischief_system_net_forget_hosts()
        #expect(Self.lookUp("127.0.0.1"))
        #expect(Self.names(of: "127.0.0.1").isEmpty, "an address is not a name for itself")
    }

    @Test func aNameTooLongForTheBufferIsLeftOutWholeNotCut() throws {
        mischief_system_net_forget_hosts()
        try #require(Self.lookUp("localhost"))
        #expect(
            Self.names(of: "127.0.0.1", capacity: 8).isEmpty,
            "'localhost' takes 9 bytes, a NUL and room for a separator")
        #expect(Self.names(of: "127.0.0.1", capacity: 11) == ["localhost"])
        mischief_system_net_forget_hosts()
    }
}
