import Foundation
import Mischief
import MischiefControl
import Synchronization

/// The test process's one control server, started by the first live test and kept until the process exits.
enum LiveSession {
    private static let server = Mutex<Task<ControlServer?, Never>?>(nil)

    /// Whether `MISCHIEF_SERVE` asks the process to serve (`1`, `true` or `yes`).
    static var isAsked: Bool {
        ProcessInfo.processInfo.environment["MISCHIEF_SERVE"].map { ["1", "true", "yes"].contains($0.lowercased()) }
            ?? false
    }

    /// The name the process serves under: the test bundle's, without `.xctest` (`InventoryPackageTests`).
    static var bundleName: String {
        let path = CommandLine.arguments.first ?? "tests"
        var name = URL(fileURLWithPath: path).lastPathComponent
        if name.hasSuffix(".xctest") { name.removeLast(".xctest".count) }
        return name.isEmpty ? "tests" : name
    }

    /// Starts serving, once, when `serving` or the environment asks; returns whether the process serves.
    static func serve(_ serving: LiveTestsTrait.Serving, registry: Registry) async -> Bool {
        guard serving == .always || isAsked else { return false }
        let task = server.withLock { task in
            if let task { return task }
            let started = Task { () -> ControlServer? in
                registry.publishScopes()
                do {
                    let server = try await ControlServer.serve(name: bundleName, registry: registry)
                    FileHandle.standardError.write(
                        Data("mischief: tests of \(bundleName) serve the control API on \(server.socketPath)\n".utf8))
                    return server
                } catch {
                    FileHandle.standardError.write(
                        Data("mischief: tests of \(bundleName) cannot serve the control API: \(error)\n".utf8))
                    return nil
                }
            }
            task = started
            return started
        }
        return await task.value != nil
    }

    /// What a failing issue of the test adds: the changes its scope had from outside it, with their specs, seeds
    /// and sources, and the trait that makes them again; nil when it had none.
    static func note(for scope: ChaosScope, id: Int) -> String? {
        let outside = scope.outsideLayers
        guard !outside.isEmpty else { return nil }
        var lines = [
            "Mischief: this test ran with \(outside.count) change\(outside.count == 1 ? "" : "s") from outside it "
                + "(scope #\(id) \"\(scope.name)\", session seed \(scope.registry.sessionSeed)):"
        ]
        for layer in outside {
            lines.append(
                "  \(layer.seam): \(layer.spec) from \(layer.source ?? "?"), seed \(layer.seed)"
                    + (layer.isActive ? "" : " (reverted before the failure)"))
        }
        let traits = outside.map { ".mischief(\(literal(layer: $0)))" }.joined(separator: ", ")
        lines.append(
            "To fail it again the same way: @Test(\(traits)) with MISCHIEF_SEED=\(scope.registry.sessionSeed)")
        lines.append("Or, while these tests run, export it as a test that makes each change after the same call:")
        lines.append("  \(exportCommand(id: id, name: scope.name))")
        return lines.joined(separator: "\n")
    }

    /// The command that exports scope `id` (named `name`) of this process as a test:
    /// `mischief export --scope '#3' --socket WarehousePackageTests --output CountsApplesRegressionTests.swift`. The
    /// scope goes by its number and the file by the name's ASCII letters and digits, so nothing of the name needs
    /// quoting in a shell.
    static func exportCommand(id: Int, name: String) -> String {
        let words = name.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        var file = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if file.first.map({ !$0.isLetter }) ?? true { file = "Scope\(id)" + file }
        let socket =
            bundleName.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
            ? bundleName : "'" + bundleName.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        return "mischief export --scope '#\(id)' --socket \(socket) --output \(file)RegressionTests.swift"
    }

    private static func literal(layer: ScopeLayer) -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "\(quoted(layer.seam.rawValue)), \(quoted(layer.spec))"
    }
}
