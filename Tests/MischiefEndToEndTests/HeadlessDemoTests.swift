import Foundation
import MischiefTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The test helper that says what a demo was doing when a request to it failed.
@Suite(.oneAtATime) struct HeadlessDemoTests {
    /// A stopped demo: every thread shows as stopped (`T`), the server's event loop among them by name, and the
    /// diagnosis says the process still runs.
    @Test func theDiagnosisShowsAStoppedDemosThreads() async throws {
        #if os(Linux)
            let demo = try await HeadlessDemo.start()
            defer { demo.kill() }
            #expect(kill(demo.process.pid, SIGSTOP) == 0)
            defer { kill(demo.process.pid, SIGCONT) }
            let threads = try await Poll.until("every thread of the demo to stop", lastSeen: { demo.diagnosis() }) {
                () -> [String]? in
                let threads = demo.threads()
                return !threads.isEmpty && threads.allSatisfy { $0.state == "T" } ? threads.map(\.name) : nil
            }
            let diagnosis = demo.diagnosis()
            #expect(diagnosis.hasPrefix("the demo (pid \(demo.process.pid)): running\n"), "\(diagnosis)")
            #expect(diagnosis.contains(": T, in "), "\(diagnosis)")
            #expect(threads.count > 2, "\(diagnosis)")
            #expect(threads.contains { $0.hasPrefix("NIO-ELT") }, "no event loop thread named: \(diagnosis)")
        #else
            print("skipped: the diagnosis reads /proc, which only Linux has")
        #endif
    }
}
