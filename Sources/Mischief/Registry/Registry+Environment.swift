#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What is left to apply of an ``EnvironmentChaos``, and what it applied.
struct EnvironmentPlan {
    /// Where the entries come from (`MISCHIEF_APPLY`, `MISCHIEF_PROFILE`).
    var source = EnvironmentChaos.variable
    /// Entries waiting for their seams to register, in order for each seam.
    var pending: [SeamID: [SeamSpec]] = [:]
    /// What the entries applied so far, to revert them all if a later one does not fit.
    var applied: [(seam: SeamID, applied: Applied)] = []
    /// Set once an entry failed: nothing more is applied.
    var failed = false
    /// Where announcements and failures are written besides the event log (stderr).
    var diagnostics: @Sendable (String) -> Void = Registry.writeToStandardError
}

extension Registry {
    /// The process-wide registry, with `MISCHIEF_APPLY` read (see ``EnvironmentChaos``).
    static func makeShared() -> Registry {
        let registry = Registry()
        guard KillSwitch.isChaosCompiledIn else { return registry }  // a shipping build: the variables mean nothing
        registry.recordFromEnvironment()  // first, so the recording has what MISCHIEF_APPLY applies
        registry.replayFromEnvironment()
        guard let value = Environment.value(EnvironmentChaos.variable),
            value.contains(where: { !$0.isWhitespace })
        else { return registry }
        do throws(EnvironmentChaosError) {
            registry.applyWhenRegistered(try EnvironmentChaos(parsing: value))
        } catch {
            let message = "\(error); nothing from \(EnvironmentChaos.variable) is applied"
            writeToStandardError("mischief: " + message)
            registry.report(seam: nil, message: message, kind: .problem, source: EnvironmentChaos.variable)
        }
        return registry
    }

    /// Applies each entry of `chaos` when its seam registers, at once for seams already registered, with the
    /// source `MISCHIEF_APPLY`; announces it on stderr. If an entry does not fit its seam, everything `chaos`
    /// applied is reverted, nothing more is, and the failure goes to stderr and the event log.
    public func applyWhenRegistered(_ chaos: EnvironmentChaos) {
        applyWhenRegistered(chaos, diagnostics: Registry.writeToStandardError)
    }

    package func applyWhenRegistered(_ chaos: EnvironmentChaos, diagnostics write: @escaping @Sendable (String) -> Void)
    {
        guard !chaos.entries.isEmpty else { return }
        let diagnostics: @Sendable (String) -> Void = { write(Registry.printable($0)) }
        environment.withLock { plans in
            var plan = EnvironmentPlan(source: chaos.source, diagnostics: diagnostics)
            for entry in chaos.entries { plan.pending[entry.seam, default: []].append(entry) }
            plans[chaos.source] = plan
        }
        diagnostics("mischief: \(chaos.source) is active: \(chaos) (each applies when its seam registers)")
        applyEnvironment(to: seams.map(\.id))
    }

    /// Applies the pending entries for `ids`, just registered, of every source.
    func applyEnvironment(to ids: [SeamID]) {
        let sources = environment.withLock { plans in plans.keys.sorted() }
        for source in sources { applyEnvironment(to: ids, from: source) }
    }

    private func applyEnvironment(to ids: [SeamID], from source: String) {
        let due = environment.withLock { plans in
            guard var plan = plans[source], !plan.failed, !plan.pending.isEmpty else {
                return [SeamSpec]()
            }
            defer { plans[source] = plan }
            return ids.flatMap { plan.pending.removeValue(forKey: $0) ?? [] }
        }
        for entry in due {
            do throws(MischiefError) {
                let applied = try apply(
                    spec: entry.spec, to: entry.seam, source: entry.source ?? source, seed: entry.seed, ttl: entry.ttl)
                let kept = environment.withLock { plans in
                    guard plans[source]?.failed == false else { return false }
                    plans[source]!.applied.append((entry.seam, applied))
                    return true
                }
                if !kept { revert(applied) }
            } catch {
                failEnvironment(entry, error, from: source)
                return
            }
        }
    }

    private func failEnvironment(_ entry: SeamSpec, _ error: MischiefError, from source: String) {
        let (applied, diagnostics) = environment.withLock { plans in
            let plan = plans[source] ?? EnvironmentPlan(source: source)
            plans[source]?.failed = true
            plans[source]?.pending = [:]
            plans[source]?.applied = []
            return (plan.applied, plan.diagnostics)
        }
        for (_, handle) in applied { revert(handle) }
        let undone =
            applied.isEmpty
            ? "it had applied nothing else"
            : "reverted what it had applied to " + applied.map(\.seam.rawValue).joined(separator: ", ")
        let message = "\(source) entry '\(entry)' does not fit its seam: \(error); \(undone)"
        diagnostics("mischief: " + message)
        report(seam: entry.seam, message: message, kind: .problem, source: source)
    }

    /// `text` safe to write to a terminal: controls (ESC, BEL, …) and bidirectional controls from a spec or a
    /// file are written as `\u001B` escapes, so they cannot move the cursor, ring or recolour; line breaks and
    /// tabs stay.
    package static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { SpecFormat.escapesEverywhere($0) && $0 != "\n" && $0 != "\t" })
        else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if SpecFormat.escapesEverywhere(scalar), scalar != "\n", scalar != "\t" {
                result += SpecFormat.escaped(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` on one line, safe to write to a terminal: every control, line breaks and tabs too, and every
    /// bidirectional control is written as a `\u001B` escape (see ``printable(_:)``).
    package static func printableLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: SpecFormat.escapesEverywhere) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if SpecFormat.escapesEverywhere(scalar) {
                result += SpecFormat.escaped(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Writes a line to stderr, its controls escaped (see ``printable(_:)``).
    @Sendable static func writeToStandardError(_ line: String) {
        _ = Recorder.write(printable(line) + "\n", to: 2)  // whole, as a recording's lines are
    }
}
