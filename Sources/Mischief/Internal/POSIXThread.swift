#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX thread running a Swift closure: for work that must never wait on Swift's cooperative pool (the
/// registry's housekeeping, the terminal), and for tests that must know a thread has exited, its thread-exit
/// destructors included.
package struct POSIXThread: @unchecked Sendable {
    // @unchecked: a pthread_t is an opaque handle, joined or detached once by its owner.
    private let handle: pthread_t

    /// Boxes the body so it can cross the C boundary.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a thread running `body`; the error is `pthread_create`'s (an `errno` value). The thread must be
    /// joined or detached.
    package static func start(_ body: @escaping @Sendable () -> Void) -> Result<POSIXThread, POSIXThreadError> {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
            let result = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, context)
        #else
            var thread: pthread_t?
            let result = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                    return nil
                }, context)
        #endif
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return .failure(POSIXThreadError(code: result))
        }
        #if canImport(Glibc)
            return .success(POSIXThread(handle: thread))
        #else
            return .success(POSIXThread(handle: thread!))
        #endif
    }

    /// Lets the thread end on its own, its resources freed when it does.
    package func detach() { pthread_detach(handle) }

    /// Waits until the thread has exited.
    package func join() { pthread_join(handle, nil) }
}

/// Why a thread could not be started: `pthread_create`'s error number.
package struct POSIXThreadError: Error, Equatable {
    package let code: Int32
}
