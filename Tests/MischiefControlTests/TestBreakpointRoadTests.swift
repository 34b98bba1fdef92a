import Foundation
import Mischief
import MischiefAttach
import MischiefConsole
import MischiefTestSupport
import Testing

@testable import MischiefControl

/// A call a `pause` holds in one test's scope (a breakpoint on that test, issue 49) reaches the console with its input
/// and the test that holds it, on both roads: in process (`LocalController`, the registry's deltas) and attached
/// (`RemoteController`, the server's events stream, through JSON). Before, both carried only a count of held calls.
@Suite(.timeLimit(.minutes(1))) struct TestBreakpointRoadTests {
    @Test(arguments: [false, true])
    func aCallHeldInATestReachesTheConsoleWithItsInput(attached: Bool) async throws {
        try await withTarget { target in
            let echo = Seam<String, String, Never>("t.echo", title: "Echo", category: "Test", summary: "") { $0 }
            try target.registry.register(echo)
            target.registry.publishScopes()
            let scope = ChaosScope("countsPears()", registry: target.registry)
            let id = try #require(target.registry.publish(scope))
            let saves = URL(fileURLWithPath: "/nonexistent")
            let remote =
                attached
                ? RemoteController(socketPath: target.socketPath, sessionName: "console", saveDirectory: saves) : nil
            let controller: any ConsoleController =
                remote ?? LocalController(registry: target.registry, name: "test", saveDirectory: saves)
            let follower = Follower(controller)
            try await follower.until("the target") { !$0.seams.isEmpty }
            try target.registry.apply(spec: "pause", to: "t.echo", inScopesMatching: "#\(id)", source: "alice")
            // A sync seam's pause blocks its thread: the held call runs on a thread of its own, not the task pool.
            async let waiting: String = withCheckedContinuation { done in
                Thread.detachNewThread { done.resume(returning: scope.run { echo("a \"pear\"") }) }
            }
            try await scope.held(echo)
            let data = try await follower.until("the test's held call with its input") { data in
                data.scopes.contains { $0.seams.contains { !$0.heldCalls.isEmpty } }
            }
            let row = try #require(data.scopes.first)
            #expect(row.id == id && row.name == "countsPears()")
            #expect(row.seams.first { $0.seam == "t.echo" }?.heldCalls == [HeldCall(input: #""a \"pear\"""#)])
            #expect(target.registry.releaseInScopes(matching: "#\(id)") == 1)
            #expect(await waiting == "a \"pear\"")
            try await follower.until("no held call") { data in
                data.scopes.allSatisfy { $0.seams.allSatisfy { $0.heldCalls.isEmpty } }
            }
            follower.stop()
            await remote?.close()
        }
    }
}
