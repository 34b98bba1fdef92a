import Foundation
import Mischief
import Testing

@testable import MischiefControl

/// `crash` and `log`, in process: a crash is refused unless the server was started allowing it, with a message
/// that says how; `log` needs no permission.
@Suite(.timeLimit(.minutes(1))) struct ControlAPICrashTests {
    @Test func aCrashIsRefusedWithHowToAllowIt() async throws {
        try await withAPI { target in
            let refused = await refusal { try await target.client().apply("crash(\"boom\")", to: "t.count") }
            #expect(refused?.status == 400)
            #expect(refused?.body.error == "refused")
            #expect(refused?.body.detail.contains("MISCHIEF_ALLOW_CRASH=1") == true)
            #expect(refused?.body.detail.contains("allowCrash") == true)
            let detail = try await target.client().seam("t.count")
            #expect(detail.seam.spec == nil)
        }
    }

    @Test func aServerStartedWithAllowCrashAcceptsIt() async throws {
        try await withAPI(configure: { $0.allowCrash = true }) { target in
            #expect(target.registry.allowsCrash)
            let detail = try await target.client().apply("20%crash(\"boom\") -> off", to: "t.count")
            #expect(detail.seam.spec == "20%crash(\"boom\") -> off")
        }
    }

    @Test func logIsAppliedAndItsEventsReachTheConsoleState() async throws {
        try await withAPI { target in
            _ = try await target.client().apply("print(\"seen\") + return(5)", to: "t.count")
            #expect(target.count() == 5)
            let state = try await target.client().delta(since: 0).registry
            #expect(state.events.contains { $0.kind == .report && $0.seam == "t.count" && $0.message == "seen" })
            #expect(state.seams.first { $0.id == "t.count" }?.spec == "log(\"seen\") + return(5)")
        }
    }
}
