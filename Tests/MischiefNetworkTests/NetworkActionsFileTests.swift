import Foundation
import Mischief
import MischiefNetwork
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `respond(file:)` reads regular files only, up to a limit, and within the directories a confined spec may read.
@Suite struct NetworkActionsFileTests {
    private func specError(_ f: NetworkFixture, _ spec: String, fileAccess: FileAccess = .unrestricted) -> SpecError? {
        do {
            _ = try f.registry.change(spec: spec, for: f.id, fileAccess: fileAccess)
            return nil
        } catch {
            guard case .invalidSpec(_, let specError) = error else { return nil }
            return specError
        }
    }

    @Test func kernelFilesAreNotBodies() throws {
        let f = try NetworkFixture()
        let error = try #require(specError(f, #"respond(file: "/proc/self/environ")"#))
        #expect(error.message.contains("not a regular file"))
        #expect(error.column == 9)
    }

    @Test func aFileOverTheLimitIsRefusedFromItsSize() throws {
        let f = try NetworkFixture()
        let huge = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-huge-\(UUID())").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: huge) }
        #expect(truncate(huge, 64 << 20) == 0)
        let error = try #require(specError(f, #"respond(file: "\#(huge)")"#))
        #expect(error.message.hasSuffix("it holds more than 16 MiB, the limit"))
    }

    @Test func aConfinedSpecReadsOnlyInsideItsDirectories() async throws {
        let f = try NetworkFixture()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mischief-dir-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"ok": true}"#.utf8).write(to: directory.appendingPathComponent("ok.json"))
        let access = FileAccess.confined(to: [directory.path])
        try f.registry.apply(spec: #"respond(file: "ok.json", path: "/ok")"#, to: f.id, fileAccess: access)
        let (data, response) = try await f.get("/ok")
        #expect(data == Data(#"{"ok": true}"#.utf8))
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")

        let outside = try #require(specError(f, #"respond(file: "/etc/hostname")"#, fileAccess: access))
        #expect(outside.message == "not readable within the allowed directories")
        let none = try #require(specError(f, #"respond(file: "ok.json")"#, fileAccess: .none))
        #expect(none.message.hasPrefix("files are not allowed from the control API"))
    }
}
