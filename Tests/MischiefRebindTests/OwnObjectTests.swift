#if os(Linux)
    import CMischiefRebind
    import Glibc
    import Testing

    typealias PidFunction = @convention(c) () -> pid_t

    /// Where apply puts the real `getpid`, read by the stand-in on any thread.
    nonisolated(unsafe) let originalGetpid = {
        let slot = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        slot.initialize(to: nil)
        return slot
    }()

    /// `getpid`, through the original: harmless to every other test of this process while it is rebound.
    private func sameGetpid() -> pid_t {
        unsafeBitCast(originalGetpid.pointee!, to: PidFunction.self)()
    }

    private let sameGetpidFunction: PidFunction = sameGetpid
    nonisolated(unsafe) private let getpidName = UnsafePointer(strdup("getpid")!)
    nonisolated(unsafe) private let strlenName = UnsafePointer(strdup("strlen")!)

    /// Chooses only the executable (whose path is ""): in a SwiftPM build, the object holding the rebinding code.
    private let executableOnly: mischief_rebind_filter = { path, _ in
        guard let path else { return 0 }
        return path.pointee == 0 ? 1 : 0
    }

    // Serialized with the other rebinding tests: restore empties the one table of the process.
    extension RebindTests {
        @Test("the rebinding code's own object is rebound when a filter asks, except for what the code calls itself")
        func ownObject() throws {
            let address = unsafeBitCast(sameGetpidFunction, to: UnsafeMutableRawPointer.self)
            let stillReal = [mischief_rebinding(symbol: strlenName, replacement: address, original: nil)]
            #expect(mischief_rebind_apply(stillReal, 1, executableOnly, nil) == 0, "strlen: the code calls it")
            #expect(mischief_rebind_restore() == 0)

            let getpid = [mischief_rebinding(symbol: getpidName, replacement: address, original: originalGetpid)]
            let written = mischief_rebind_apply(getpid, 1, executableOnly, nil)
            defer { _ = mischief_rebind_restore() }
            try #require(written > 0, "the test runner calls getpid through a slot of its own")
            #expect(Glibc.getpid() == sameGetpid(), "the stand-in answers through the original")
            #expect(mischief_rebind_restore() == written)
        }
    }
#endif
