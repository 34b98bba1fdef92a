import Foundation
import Mischief
import MischiefControl
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// TCP is off unless asked for; when asked, it listens on loopback only and wants the token on every request.
@Suite struct LoopbackTests {
    @Test func tcpNeedsTheTokenOnEveryRequest() async throws {
        let made = try SocketDirectory()  // mkdtemp without a strdup that was never freed (LeakSanitizer)
        defer { made.remove() }
        let directory = made.path
        var options = ControlServer.Options(name: "tcp", socketPath: directory + "/t.sock")
        options.loopbackPort = 0
        let server = ControlServer(registry: Registry(sessionSeed: 1), options: options)
        try await server.start()
        let port = try #require(server.tcpPort)
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/v1/target"))

        let (denied, deniedResponse) = try await URLSession.shared.data(from: url)
        #expect((deniedResponse as? HTTPURLResponse)?.statusCode == 401)
        #expect(String(decoding: denied, as: UTF8.self).contains("Authorization: Bearer"))

        var request = URLRequest(url: url)
        request.setValue("Bearer \(server.token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try JSONDecoder().decode(TargetHeader.self, from: data).name == "tcp")
        await server.stop()
    }

    @Test func noTCPUnlessAskedFor() async throws {
        let made = try SocketDirectory()  // mkdtemp without a strdup that was never freed (LeakSanitizer)
        defer { made.remove() }
        let directory = made.path
        let server = ControlServer(
            registry: Registry(sessionSeed: 1), options: .init(name: "unix", socketPath: directory + "/t.sock"))
        try await server.start()
        #expect(server.tcpPort == nil)
        await server.stop()
        #expect(!FileManager.default.fileExists(atPath: directory + "/t.sock"))
    }
}
