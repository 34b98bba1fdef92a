import Foundation
import Mischief
import MischiefNetwork
import Testing

@testable import MischiefControl

/// Files named by specs and profiles that arrive over the API: none by default, else only regular files inside the
/// directories the target allowed, and the errors say nothing about files a client may not read.
@Suite(.timeLimit(.minutes(1))) struct ControlAPIFileAccessTests {
    /// A target with a network seam, and a directory holding a 0600 file with a secret in it.
    private func withNetworkTarget(
        allowing allowed: Bool = false, _ body: (APITarget, SeamID, String) async throws -> Void
    ) async throws {
        let files = try SocketDirectory()
        defer { files.remove() }
        let secret = files.path + "/secret.json"
        #expect(
            FileManager.default.createFile(
                atPath: secret, contents: Data("{\"token\": \"s3cr3t\"}".utf8), attributes: [.posixPermissions: 0o600]))
        try await withAPI(configure: { options in
            if allowed { options.fileAccess = .confined(to: [files.path]) }
        }) { target in
            let network = ChaosNetwork(id: "t.net", registry: target.registry)
            try network.register()
            try await body(target, network.seam.info.id, secret)
        }
    }

    /// The first line of a refusal's detail: the message, without the spec and caret lines.
    private func message(_ refusal: (status: Int, body: ErrorBody)?) -> String? {
        refusal?.body.detail.split(separator: "\n").first.map(String.init)
    }

    @Test func aSpecFromTheAPIReadsNoFileByDefault() async throws {
        try await withNetworkTarget { target, seam, secret in
            let client = target.client()
            for path in [secret, secret + ".missing", "/proc/self/environ"] {
                let refused = await refusal { try await client.apply(#"respond(file: "\#(path)")"#, to: seam) }
                #expect(refused?.status == 400)
                let text = try #require(message(refused))
                #expect(text.contains("files are not allowed from the control API"))
                #expect(text.contains("--allow-files"))
                #expect(!text.contains("/"))
            }
            #expect(target.registry.snapshot().seams.first { $0.id == seam }?.layers.isEmpty == true)
        }
    }

    @Test func aProfileFromTheAPIReadsNoFileByDefault() async throws {
        try await withNetworkTarget { target, seam, secret in
            let yaml = "name: Leak\nentries:\n  \(seam): 'respond(file: \"\(secret)\")'\n"
            let refused = await refusal { try await target.client().define(profiles: yaml) }
            #expect(refused?.status == 400)
            #expect(refused?.body.detail.contains("files are not allowed from the control API") == true)
            #expect(refused?.body.detail.contains("s3cr3t") == false)
            #expect(target.registry.profiles.isEmpty)
        }
    }

    @Test func anAllowedDirectoryServesItsFilesAndNothingElse() async throws {
        try await withNetworkTarget(allowing: true) { target, seam, secret in
            let client = target.client()
            _ = try await client.apply(#"respond(file: "\#(secret)")"#, to: seam)
            #expect(target.registry.snapshot().seams.first { $0.id == seam }?.layers.count == 1)

            let outside = FileManager.default.temporaryDirectory.appendingPathComponent("mc-out-\(UUID()).json").path
            try Data("outside".utf8).write(to: URL(fileURLWithPath: outside))
            defer { try? FileManager.default.removeItem(atPath: outside) }
            let link = URL(fileURLWithPath: secret).deletingLastPathComponent().appendingPathComponent("link").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
            var messages: Set<String> = []
            let escape = "../" + URL(fileURLWithPath: outside).lastPathComponent
            for path in [outside, link, secret + ".missing", "/proc/self/environ", escape] {
                let refused = await refusal { try await client.apply(#"respond(file: "\#(path)")"#, to: seam) }
                #expect(refused?.status == 400, "\(path)")
                messages.insert(try #require(message(refused)))
            }
            // One message for all: a client learns nothing about what exists outside.
            #expect(messages.count == 1)
            #expect(messages.first?.contains("not readable within the allowed directories") == true)
            #expect(messages.first?.contains("/") == false)
        }
    }

    @Test func aProfileDefinedOverTheAPIStaysConfinedWhenApplied() async throws {
        try await withNetworkTarget(allowing: true) { target, seam, secret in
            let client = target.client()
            try await client.define(profiles: "name: Fake\nentries:\n  \(seam): 'respond(file: \"\(secret)\")'\n")
            // The file becomes a link out of the directory after the profile was checked.
            let outside = FileManager.default.temporaryDirectory.appendingPathComponent("mc-out-\(UUID())").path
            try Data("outside".utf8).write(to: URL(fileURLWithPath: outside))
            defer { try? FileManager.default.removeItem(atPath: outside) }
            try FileManager.default.removeItem(atPath: secret)
            try FileManager.default.createSymbolicLink(atPath: secret, withDestinationPath: outside)
            let refused = await refusal { try await client.profile("Fake", .apply) }
            #expect(refused?.status == 400)
            #expect(refused?.body.detail.contains("not readable within the allowed directories") == true)
            // The same profile defined by the program itself reads the file, link and all.
            let own = SeamSpec(seam: seam, spec: #"respond(file: "\#(secret)")"#)
            try target.registry.define(Profile(name: "Own", entries: [own]))
            try target.registry.apply(profile: "Own")
        }
    }
}
