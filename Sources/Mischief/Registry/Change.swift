/// One seam and the behaviour to give it: what ``Registry/apply(_:source:ttl:)`` takes.
///
/// ```swift
/// try registry.apply([Change(clockNow, .constant(.distantFuture)), Change(fetchUser, .throwing(message: "down"))])
/// ```
public struct Change: Sendable, CustomStringConvertible {
    let seam: any RegisteredSeam
    let behaviour: any Sendable
    /// The behaviour described for people: a spec's canonical form, or `closure` for one built in code. Not
    /// always a spec; never apply it as one (use ``spec``).
    public let behaviourText: String
    /// The canonical spec when the change was made from one (so it can be saved and applied again); nil for a
    /// behaviour built in code.
    public let spec: String?
    /// The seed random parts derive theirs from, instead of the session seed (a profile's seed).
    let seed: UInt64?

    init(seam: any RegisteredSeam, behaviour: any Sendable, description: String, spec: String?, seed: UInt64?) {
        self.seam = seam
        self.behaviour = behaviour
        self.behaviourText = description
        self.spec = spec
        self.seed = seed
    }

    /// Pairs a synchronous seam with a behaviour of the same types.
    public init<Input, Output, Failure>(
        _ seam: Seam<Input, Output, Failure>, _ behaviour: Behaviour<Input, Output, Failure>
    ) {
        self.init(seam: seam, behaviour: behaviour, description: behaviour.description, spec: nil, seed: nil)
    }

    /// Pairs an async seam with a behaviour of the same types.
    public init<Input, Output, Failure>(
        _ seam: AsyncSeam<Input, Output, Failure>, _ behaviour: Behaviour<Input, Output, Failure>
    ) {
        self.init(seam: seam, behaviour: behaviour, description: behaviour.description, spec: nil, seed: nil)
    }

    /// Parses `spec` for `seam` directly, registered or not (``Registry/change(spec:for:seed:fileAccess:)`` finds
    /// a registered seam by id).
    ///
    /// - Parameters:
    ///   - spec: The spec's text (see <doc:WritingSpecs>).
    ///   - seam: The seam it is for.
    ///   - seed: The seed random parts derive theirs from instead of `sessionSeed`.
    ///   - sessionSeed: The seed random parts derive theirs from when neither they nor `seed` give one.
    ///   - fileAccess: Which files the spec may read (`respond(file:)`, `route(path:)`).
    /// - Throws: ``MischiefError/invalidSpec(_:_:)`` with the column and what was expected.
    public init(
        spec: String, for seam: AnySeam, seed: UInt64? = nil, sessionSeed: UInt64 = 0,
        fileAccess: FileAccess = .unrestricted
    ) throws(MischiefError) {
        do throws(SpecError) {
            let (behaviour, canonical) = try seam.behaviour(
                from: try Spec(parsing: spec), seed: seed, sessionSeed: sessionSeed, fileAccess: fileAccess)
            self.init(seam: seam, behaviour: behaviour, description: canonical, spec: canonical, seed: seed)
        } catch {
            throw .invalidSpec(seam.info.id, error)
        }
    }

    /// The id of the seam this change is for.
    public var seamID: SeamID { seam.info.id }

    /// The seam's id and the behaviour, such as `clock.now: shift(1d)`.
    public var description: String { "\(seamID): \(behaviourText)" }
}

/// Identifies one layer (one behaviour applied to one seam by one source) for as long as the registry lives; the v1
/// JSON calls it `entry` (and reads `layer` too).
public struct LayerID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// A number unique within its registry, increasing in the order layers were applied.
    public let rawValue: Int

    /// The id with the number `rawValue`, as a snapshot or the control API reports it.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Whether `lhs` was applied before `rhs`.
    public static func < (lhs: LayerID, rhs: LayerID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The number after `#`, such as `#3`.
    public var description: String { "#\(rawValue)" }
}

/// What one call to ``Registry/apply(_:source:ttl:)`` applied; pass it to ``Registry/revert(_:source:)`` to undo it as a unit.
public struct Applied: Hashable, Sendable {
    /// The layers, one for each change, in the order of the changes.
    public let layers: [LayerID]
}

/// Where a layer is in its life.
public enum RevertStatus: String, Hashable, Sendable, Codable {
    /// Defined (in a profile, say) but never applied.
    case neverApplied = "never applied"
    /// Applied and not reverted.
    case active
    /// Reverted, but calls that started while it was active are still inside its behaviour.
    case reverting
    /// Reverted, and no call is inside its behaviour any more.
    case reverted
}
