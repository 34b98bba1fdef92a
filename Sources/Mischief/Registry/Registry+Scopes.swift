// The scope table: the test scopes a test process publishes while it serves the control API, so a console lists each
// running test, its counts and its layers, and changes one test's world alone (issue 49, "Live test sessions").

extension Registry {
    /// The registry's table of published scopes, kept under its lock.
    struct ScopeTable {
        struct Row {
            let id: Int
            let scope: ChaosScope
            var status: ScopeStatus
            let started: Duration
            var ended: Duration?
        }

        /// Whether scopes are published (``Registry/publishScopes()``); until then ``Registry/publish(_:)`` keeps nothing.
        var isPublishing = false
        var rows: [Row] = []
        var nextID = 1
        /// The running scopes' counts as last read, so a read that finds them moved counts a change.
        var mark = 0
        /// The most ended scopes kept; older ones go first.
        static let endedCapacity = 1000
    }

    /// Whether scopes are published to consoles: set by ``publishScopes()``, which a test process serving the control
    /// API calls (MischiefLiveTests does).
    public var publishesScopes: Bool { state.withLock { $0.scopes.isPublishing } }

    /// Starts publishing scopes: from now on `publish(_:)` lists scopes in ``scopes`` and in deltas. Without it a
    /// test costs what it always did.
    public func publishScopes() {
        state.withLock { $0.scopes.isPublishing = true }
    }

    /// Lists `scope` (a running test's) in the scope table, and logs that it started; nil (and nothing kept) when the
    /// registry does not publish scopes. From then on the scope numbers its calls (``ChaosScope/startNumbering()``),
    /// so the changes made to it from outside say after which call they came.
    ///
    /// - Returns: The scope's number in the table, for ``endScope(_:passed:)``.
    @discardableResult
    public func publish(_ scope: ChaosScope) -> Int? {
        let time = now
        let id = state.withLock { state -> Int? in
            guard state.scopes.isPublishing else { return nil }
            let id = state.scopes.nextID
            state.scopes.nextID += 1
            state.scopes.rows.append(.init(id: id, scope: scope, status: .running, started: time))
            state.generations.scopesChanged()
            state.log(time, .report, nil, "test: \(scope.name)", "test \(scope.name) started")
            return id
        }
        if id != nil { scope.startNumbering() }
        return id
    }

    /// Marks the published scope `id` as ended, passed or failed, and logs it with its time.
    public func endScope(_ id: Int, passed: Bool) {
        let time = now
        state.withLock { state in
            guard let index = state.scopes.rows.firstIndex(where: { $0.id == id }),
                state.scopes.rows[index].ended == nil
            else { return }
            let passed = passed && state.scopes.rows[index].status != .failed
            state.scopes.rows[index].ended = time
            state.scopes.rows[index].status = passed ? .passed : .failed
            let row = state.scopes.rows[index]
            state.scopes.trimEnded()
            state.generations.scopesChanged()
            let seconds = (time - row.started).seconds
            let outside = row.scope.outsideLayers
            let note =
                outside.isEmpty
                ? "" : " with \(outside.count) change\(outside.count == 1 ? "" : "s") from outside"
            state.log(
                time, .report, nil, "test: \(row.scope.name)",
                "test \(row.scope.name) \(passed ? "passed" : "failed") after \(Self.format(seconds)) s\(note)")
        }
    }

    /// Marks the published scope `id` as failed at once (its test recorded an issue); it still ends with its test.
    public func scopeFailed(_ id: Int) {
        state.withLock { state in
            guard let index = state.scopes.rows.firstIndex(where: { $0.id == id }),
                state.scopes.rows[index].status == .running
            else { return }
            state.scopes.rows[index].status = .failed
            state.generations.scopesChanged()
        }
    }

    /// Every published scope, running and ended, in the order published.
    public var scopes: [ScopeSnapshot] {
        let time = now
        return state.withLock { state in state.scopes.rows.map { $0.snapshot(time: time) } }
    }

    /// The running published scopes `pattern` names: a scope's number (`3` or `#3`), its exact name, or a pattern
    /// where `*` stands for any text and `?` for one character (`*timeout*`).
    public func runningScopes(matching pattern: String) -> [ChaosScope] {
        let rows = state.withLock { state in state.scopes.rows.filter { $0.ended == nil } }
        return rows.filter { Self.scope($0.id, named: $0.scope.name, matches: pattern) }.map(\.scope)
    }

    /// Applies `spec` to the seam `id` in each running scope `pattern` names (see ``runningScopes(matching:)``), for
    /// `source`; only those tests see it. Logs one event a scope, naming the test.
    ///
    /// - Returns: The scopes changed, as the table shows them now.
    /// - Throws: ``MischiefError/unsupported(_:_:)`` when no running scope matches, or what
    ///   ``ChaosScope/apply(spec:to:source:seed:)`` throws (then no scope is changed).
    @discardableResult
    public func apply(
        spec: String, to id: SeamID, inScopesMatching pattern: String, source: String, seed: UInt64? = nil
    ) throws(MischiefError) -> [ScopeSnapshot] {
        let scopes = runningScopes(matching: pattern)
        guard !scopes.isEmpty else {
            throw .unsupported(id, "no running test matches '\(pattern)' (`mischief list --scopes` lists them)")
        }
        // Checked once before any scope changes, so a bad spec changes none.
        _ = try change(spec: spec, for: id, seed: seed)
        var layers: [(ChaosScope, ScopeLayer)] = []
        for scope in scopes { layers.append((scope, try scope.apply(spec: spec, to: id, source: source, seed: seed))) }
        let time = now
        return state.withLock { state in
            for (scope, layer) in layers {
                state.log(time, .report, id, source, "applied \(layer.spec) in test \(scope.name)")
            }
            state.generations.scopesChanged()
            let changed = Set(scopes.map(ObjectIdentifier.init))
            return state.scopes.rows.filter { changed.contains(ObjectIdentifier($0.scope)) }.map {
                $0.snapshot(time: time)
            }
        }
    }

    /// Reverts what `source` applied from outside in the scopes `pattern` names (every scope, ended ones too, when
    /// nil), on the seam `id` only when given; with `source` nil, every change from outside. The scopes' own layers
    /// (their tests' traits') stay. Returns how many layers went, and logs one event a scope that lost any, as
    /// `requester`'s (`source` when nil).
    @discardableResult
    public func revertInScopes(
        matching pattern: String?, seam id: SeamID? = nil, source: String?, requester: String? = nil
    ) -> Int {
        let rows = state.withLock { $0.scopes.rows }
        let time = now
        var reverted: [(String, Int)] = []
        for row in rows where pattern.map({ Self.scope(row.id, named: row.scope.name, matches: $0) }) ?? true {
            let count = row.scope.revert(source: source, seam: id)
            if count > 0 { reverted.append((row.scope.name, count)) }
        }
        guard !reverted.isEmpty else { return 0 }
        state.withLock { state in
            for (name, count) in reverted {
                state.log(
                    time, .report, id, requester ?? source,
                    "reverted \(count) change\(count == 1 ? "" : "s") in test \(name)")
            }
            state.generations.scopesChanged()
        }
        return reverted.reduce(0) { $0 + $1.1 }
    }

    /// Lets the calls held by the pauses of the running scopes `pattern` names go on (on the seam `id` only when
    /// given); returns how many.
    @discardableResult
    public func releaseInScopes(matching pattern: String, seam id: SeamID? = nil) -> Int {
        let released = runningScopes(matching: pattern).reduce(0) { $0 + $1.release(seam: id) }
        state.withLock { $0.generations.scopesChanged() }
        return released
    }

    /// Ends the calls held on `seam` in the running scopes `pattern` names as a breakpoint does (see
    /// ``release(_:answer:holdNext:source:)``): unchanged, or returning or throwing what `answer` gives; with
    /// `holdNext` false the pauses applied from outside those scopes are reverted, so the rest of the test runs.
    ///
    /// - Returns: How many calls were ended.
    /// - Throws: What ``release(_:answer:holdNext:source:)`` throws for an answer that does not fit; nothing is
    ///   released then.
    @discardableResult
    public func releaseInScopes(
        matching pattern: String, seam: SeamID, answer: String?, holdNext: Bool, source: String
    ) throws(MischiefError) -> Int {
        var box: (any AnyObject & Sendable)?
        var canonical: String?
        if let answer { (box, canonical) = try answerBox(answer, for: seam) }
        let scopes = runningScopes(matching: pattern)
        var released = 0
        var reverted = 0
        for scope in scopes {
            released += scope.release(seam: seam, answer: box)
            if !holdNext { reverted += scope.revertOutsidePauses(seam: seam) }
        }
        let time = now
        state.withLock { state in
            if released > 0 {
                let how = canonical.map { " answering \($0)" } ?? ""
                let names = scopes.map(\.name).joined(separator: ", ")
                state.log(
                    time, .report, seam, source,
                    "released \(released) held call\(released == 1 ? "" : "s")\(how) in test \(names)")
            }
            state.generations.scopesChanged()
        }
        return released
    }

    /// Whether the scope numbered `id` and named `name` is one `pattern` names.
    static func scope(_ id: Int, named name: String, matches pattern: String) -> Bool {
        let number = pattern.hasPrefix("#") ? String(pattern.dropFirst()) : pattern
        if let wanted = Int(number) { return wanted == id }
        if pattern == name { return true }
        guard pattern.contains("*") || pattern.contains("?") else { return false }
        return glob(Array(pattern), Array(name))
    }

    private static func glob(_ pattern: [Character], _ text: [Character]) -> Bool {
        // Iterative wildcard match: `*` any run, `?` one character.
        var p = 0
        var t = 0
        var star = -1
        var mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                mark = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    static func format(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) + ".0" : String(tenths)
    }
}

extension ScopeSnapshot {
    /// Whether `pattern` names this scope: its number (`3` or `#3`), its exact name, or a pattern where `*` stands for
    /// any text and `?` for one character (`*timeout*`), as ``Registry/runningScopes(matching:)`` reads it.
    public func isNamed(by pattern: String) -> Bool {
        Registry.scope(id, named: name, matches: pattern)
    }
}

extension Registry.ScopeTable {
    /// Drops the oldest ended scopes past ``endedCapacity``.
    mutating func trimEnded() {
        let ended = rows.filter { $0.ended != nil }.count
        guard ended > Self.endedCapacity else { return }
        var excess = ended - Self.endedCapacity
        rows.removeAll { row in
            guard excess > 0, row.ended != nil else { return false }
            excess -= 1
            return true
        }
    }
}

extension Registry.ScopeTable.Row {
    func snapshot(time: Duration) -> ScopeSnapshot {
        ScopeSnapshot(
            id: id, name: scope.name, status: status, started: started.seconds, ended: ended?.seconds,
            seams: scope.seamCounts, layers: scope.layers, outside: scope.outsideLayers)
    }
}

extension Registry.State {
    /// The scope table when it changed after `generation`, or when its running scopes' counts moved since the last
    /// read (which counts as a change, as moved seam counters do); nil otherwise.
    mutating func changedScopes(since generation: UInt64, time: Duration) -> [ScopeSnapshot]? {
        guard scopes.isPublishing, !scopes.rows.isEmpty else { return nil }
        let mark = scopes.rows.reduce(0) { $0 &+ ($1.ended == nil ? $1.scope.countsMark &* ($1.id &+ 1) : 0) }
        if mark != scopes.mark {
            scopes.mark = mark
            generations.scopesChanged(wakes: false)
        }
        guard generation == 0 || generations.scopes > generation else { return nil }
        return scopes.rows.map { $0.snapshot(time: time) }
    }
}
