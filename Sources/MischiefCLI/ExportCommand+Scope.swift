import ArgumentParser
import Foundation
import Mischief
import MischiefControl

// `mischief export --scope`: one test of a live test session, read from the running test process, as a recording of
// the changes it had from outside it (`Recording(scope:…)`), which the export then writes as a test.

extension ExportCommand {
    /// The most tests an error lists.
    static let listedTests = 20

    /// The recording of the one test `pattern` names in the test process `target` finds, and the exported test's
    /// default name; an exit with status 1 that names the tests when none or several match, 3 when no target answers.
    static func recording(ofScope pattern: String, target: TargetOptions) async throws -> (Recording, String) {
        let client = try await target.connect()
        let header = try await talking { () async throws(ControlClientError) in try await client.target() }
        // None from a server from before live test sessions (it answers 404).
        let scopes = try await talking { () async throws(ControlClientError) in try await ListCommand.scopes(client) }
        guard !scopes.isEmpty else {
            printError(
                "\(header.name) lists no tests: --scope reads a test process that serves a live test session "
                    + "(MISCHIEF_SERVE=1 swift test, with the .liveTests trait on its suites)")
            throw TargetExit.refused
        }
        let named = scopes.filter { $0.isNamed(by: pattern) }
        guard named.count == 1 else {
            let shown = (named.isEmpty ? scopes : named)
            // A test's name on one line, whatever it holds, so each test is one line of the list.
            var lines = shown.prefix(listedTests).map {
                "  #\($0.id) \($0.status.rawValue)  \(Registry.printableLine($0.name))"
            }
            if shown.count > listedTests { lines.append("  and \(shown.count - listedTests) more") }
            if named.isEmpty {
                printError(
                    "no test of \(header.name) matches '\(pattern)'; its tests:\n" + lines.joined(separator: "\n"))
            } else {
                printError(
                    "'\(pattern)' names \(named.count) tests of \(header.name):\n" + lines.joined(separator: "\n")
                        + "\nexport one at a time, by its number: mischief export --scope '#\(named[0].id)'")
            }
            throw TargetExit.refused
        }
        let scope = named[0]
        let outside = scope.outside
        var standardError = StandardError()
        if outside.isEmpty {
            print(
                "warning: test #\(scope.id) \(Registry.printableLine(scope.name)) had no changes from outside it: "
                    + "the test replays none", to: &standardError)
        }
        // The seams its layers name, as a recording's header lists them (unknown ones are left out).
        let seams = (try? await client.seams()) ?? []
        let seamsNamed = Set(outside.map { $0.seam })
        let listed = seams.filter { seamsNamed.contains($0.id) }.map { (seam: SeamSnapshot) in
            Recording.Header.Seam(id: seam.id, title: seam.info.title, actions: seam.actions.map { $0.name })
        }
        let recording = Recording(
            scope: scope, target: header.name, pid: Int(header.pid), sessionSeed: header.sessionSeed,
            started: Date().timeIntervalSince1970, seams: listed)
        return (recording, "\(scope.name) with its changes from outside")
    }
}
