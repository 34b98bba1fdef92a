import Synchronization

extension Registry {
    /// The actions specs can use on `seam`, its own first; nil when no such seam is registered.
    public func actions(for seam: SeamID) -> [ActionSignature]? {
        registered(seam)?.actionSignatures
    }

    /// Parses `spec` for `seam` into a change, without applying it.
    ///
    /// - Parameters:
    ///   - spec: The spec's text (see <doc:WritingSpecs>).
    ///   - seam: The registered seam it is for.
    ///   - seed: A profile's seed for random parts without one of their own.
    ///   - fileAccess: Which files the spec may read (`respond(file:)`, `route(path:)`); confine specs from outside.
    /// - Throws: ``MischiefError/unknownSeam(_:)`` or ``MischiefError/invalidSpec(_:_:)`` with the column, a
    ///   caret under it and what was expected.
    public func change(
        spec: String, for seam: SeamID, seed: UInt64? = nil, fileAccess: FileAccess = .unrestricted
    ) throws(MischiefError) -> Change {
        guard let target = registered(seam) else { throw .unknownSeam(seam) }
        do throws(SpecError) {
            let parsed = try Spec(parsing: spec)
            let (behaviour, canonical) = try target.behaviour(
                from: parsed, seed: seed, sessionSeed: sessionSeed, fileAccess: fileAccess)
            return Change(seam: target, behaviour: behaviour, description: canonical, spec: canonical, seed: seed)
        } catch {
            throw .invalidSpec(seam, error)
        }
    }

    /// Applies a spec to a seam: `registry.apply(spec: "shift(+1d)", to: "clock.now")`.
    ///
    /// A spec `source` applied to the seam before is replaced, not stacked on: a console nudging a parameter, or
    /// a client putting a seam's spec again and again, keeps one layer on it (and the history stays bounded).
    /// Layers from other sources stay beneath; apply a ``Change`` to stack on purpose. On a merging seam
    /// (``Stacking/merge``, such as network rules) different specs from one source combine, newest first, and the
    /// same spec applied again replaces its earlier layer.
    ///
    /// With a `ttl` the registry reverts the change by itself when it runs out (on its monotonic clock, which
    /// virtual time does not move), and the event log says so; applying again replaces the deadline.
    @discardableResult
    public func apply(
        spec: String, to seam: SeamID, source: String = "spec", seed: UInt64? = nil,
        fileAccess: FileAccess = .unrestricted, ttl: Duration? = nil
    ) throws(MischiefError) -> Applied {
        do throws(MischiefError) {
            let change = try change(spec: spec, for: seam, seed: seed, fileAccess: fileAccess)
            return try apply([change], source: source, replacingSource: true, ttls: [ttl])
        } catch {
            if case .invalidSpec = error {
                report(seam: seam, message: error.description, kind: .refused, source: source)
            }
            throw error
        }
    }

    /// The canonical form of `spec` on `seam`: it parses, fits the seam, and prints back like this.
    public func canonical(spec: String, for seam: SeamID) throws(MischiefError) -> String {
        let change = try change(spec: spec, for: seam)
        return change.spec ?? change.behaviourText  // a change built from a spec always has its text
    }

    func registered(_ seam: SeamID) -> (any RegisteredSeam)? {
        state.withLock { $0.records[seam]?.seam }
    }

    package func report(seam: SeamID?, message: String, kind: Event.Kind, source: String?) {
        let time = now
        state.withLock { $0.log(time, kind, seam, source, message) }
    }
}
