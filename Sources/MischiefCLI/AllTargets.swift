import ArgumentParser
import Foundation
import Mischief
import MischiefControl

/// `--all-targets`: one command run on every live target on this machine (or every target of a name), each on its
/// own and all at once, then one row a target: its name, pid, socket and what happened. Exits 1 when any target
/// refused or did not answer, 3 when none is serving.
enum AllTargets {
    /// The result of the command on one target.
    struct Row: Sendable {
        let target: ControlSocket.Found
        /// What the target said of itself, when it answered.
        let info: TargetHeader?
        let result: Result<String, ControlClientError>

        var name: String { info?.name ?? target.name }
        var pid: String { (info?.pid ?? target.pid).map(String.init) ?? "-" }
    }

    /// The live targets in the socket directory, those named `name` when it is given, by name then pid.
    static func targets(named name: String?) throws -> [ControlSocket.Found] {
        let directory = ControlSocket.directory()
        let found = ControlSocket.find(in: directory).filter { $0.isLive && (name == nil || $0.name == name) }
        guard !found.isEmpty else {
            let what = name.map { "no target named '\($0)' is serving" } ?? "no target is serving"
            printError("\(what) in \(directory.path)\n  start one with `mischief demo --headless`")
            throw TargetExit.noTarget
        }
        return found.sorted { ($0.name, $0.pid ?? 0, $0.path) < ($1.name, $1.pid ?? 0, $1.path) }
    }

    /// Runs `body` on every target at once, prints the table, and exits 1 if any failed.
    static func run(
        named name: String?,
        _ body: @escaping @Sendable (ControlClient) async throws(ControlClientError) -> String
    ) async throws {
        let targets = try targets(named: name)
        let rows = await withTaskGroup(of: (Int, Row).self) { group in
            for (index, target) in targets.enumerated() {
                group.addTask {
                    let client = ControlClient.cli(socketPath: target.path)
                    var info: TargetHeader?
                    do throws(ControlClientError) {
                        info = try await client.handshake()
                        return (index, Row(target: target, info: info, result: .success(try await body(client))))
                    } catch {
                        return (index, Row(target: target, info: info, result: .failure(error)))
                    }
                }
            }
            var rows: [(Int, Row)] = []
            for await row in group { rows.append(row) }
            return rows.sorted { $0.0 < $1.0 }.map(\.1)
        }
        print(table(rows))
        let failed = rows.filter { if case .failure = $0.result { true } else { false } }.count
        if failed > 0 {
            printError("\(failed) of \(rows.count) targets refused or did not answer")
            throw TargetExit.refused
        }
    }

    /// `TARGET  PID  RESULT  SOCKET`, one row a target; a failure's message on its first line.
    static func table(_ rows: [Row]) -> String {
        let nameWidth = max(6, rows.map(\.name.count).max() ?? 0)
        var lines = ["TARGET".padding(nameWidth) + "  PID      RESULT"]
        for row in rows {
            let result: String
            switch row.result {
            case .success(let text): result = "ok       " + text
            case .failure(let error): result = "refused  " + (error.description.split(separator: "\n").first ?? "")
            }
            lines.append(
                row.name.padding(nameWidth) + "  " + row.pid.padding(7)
                    + "  " + result + "  (" + row.target.path + ")")
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The string padded with spaces to `width` characters (not cut).
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
