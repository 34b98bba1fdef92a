extension Recording {
    /// A recording of the changes one test's scope had from outside it (a console's, the CLI's, the control API's),
    /// as a live test session's scope table lists them: what `mischief export --scope` exports as a test, so a test
    /// that failed under a console's changes fails the same way again, in a test of its own.
    ///
    /// Each layer applied from outside (``ScopeSnapshot/outside``, reverted ones too) is an `applied` entry after the
    /// call of its seam it came after in the scope (``ScopeLayer/call``), with its spec, its source and its seed
    /// (always given, so the replay draws what the test drew whatever the new run's session seed); a layer reverted
    /// since is a `reverted` entry after the call it went at (one that went with the test's end is not). A seam's entries are in the order of its calls. The
    /// scope's own layers (its test's traits') are not in it: they are in the test's code. Decisions are not recorded
    /// (a scope keeps its calls, not what each layer answered), so a replay makes the changes and checks no answers.
    ///
    /// ```swift
    /// let scope = try #require(registry.scopes.first { $0.name == "countsApples()" })
    /// let recording = Recording(scope: scope, target: "WarehouseTests", pid: 42, sessionSeed: 7, started: 0)
    /// print(RecordingExport(recording).text(as: .test))      // MischiefFiles
    /// ```
    ///
    /// - Parameters:
    ///   - scope: The scope, as ``Registry/scopes`` or `GET /v1/scopes` gives it.
    ///   - target: The test process's name (its test bundle's).
    ///   - pid: Its process id.
    ///   - sessionSeed: Its registry's session seed.
    ///   - started: When the recording is said to begin, in seconds since 1970 (now, for an export).
    ///   - seams: The seams the layers name, with their actions, as a header lists them; none by default.
    public init(
        scope: ScopeSnapshot, target: String, pid: Int, sessionSeed: UInt64, started: Double,
        seams: [Header.Seam] = []
    ) {
        // Applies before reverts at the same call, and each layer's apply before its revert.
        var steps: [(call: Int, order: Int, line: Entry)] = []
        let test = "test #\(scope.id) \(scope.name)"
        for layer in scope.outside {
            let call = layer.call ?? 0
            steps.append(
                (
                    call, 2 * layer.id,
                    Entry(
                        event: 0, kind: .applied, seam: layer.seam, source: layer.source,
                        message: "applied \(layer.spec) in \(test)", time: scope.started, wall: started, call: call,
                        layer: layer.id, spec: layer.spec, seed: layer.seed)
                ))
            // A layer that went with the scope's end (its test's) has no revert to make again.
            guard !layer.isActive, let revertedCall = layer.revertedCall else { continue }
            let reverted = max(call, revertedCall)
            steps.append(
                (
                    reverted, 2 * layer.id + 1,
                    Entry(
                        event: 0, kind: .reverted, seam: layer.seam, source: layer.source,
                        message: "reverted \(layer.spec) in \(test)", time: scope.ended ?? scope.started,
                        wall: started, call: reverted, layer: layer.id)
                ))
        }
        steps.sort { ($0.call, $0.order) < ($1.call, $1.order) }
        var entries = steps.map(\.line)
        for index in entries.indices { entries[index].event = index + 1 }
        self.init(
            header: Header(
                target: "\(target): \(test)", pid: pid, sessionSeed: sessionSeed, started: started, seams: seams),
            entries: entries)
    }
}
