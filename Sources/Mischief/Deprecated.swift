// The names issue 29 retired, kept for one release so code written against them still builds, with a warning that
// names the new one. One word for one thing: a *layer* is one behaviour applied to one seam (it was an *entry*), and a
// *delta* is what changed since a generation (it was *changes*, which now only means what one applies), and the
// *behaviour text* is a behaviour written for people (``Behaviour`` is the type).

/// The id of one applied layer.
@available(*, deprecated, renamed: "LayerID")
public typealias EntryID = LayerID

/// What changed in a registry after a generation.
@available(*, deprecated, renamed: "RegistryDelta")
public typealias RegistryChanges = RegistryDelta

/// A delta as a console and the control API's events stream read it.
@available(*, deprecated, renamed: "StreamDelta")
public typealias StreamChanges = StreamDelta

extension Registry {
    /// What changed after a generation.
    @available(*, deprecated, renamed: "delta(since:eventsAfter:)")
    public func changes(since generation: UInt64, eventsAfter: Int? = nil) -> RegistryDelta {
        delta(since: generation, eventsAfter: eventsAfter)
    }

    /// What changed after a generation, with each listed seam's actions.
    @available(*, deprecated, renamed: "delta(since:eventsAfter:includingActions:)")
    public func changes(since generation: UInt64, eventsAfter: Int? = nil, includingActions: Bool) -> RegistryDelta {
        delta(since: generation, eventsAfter: eventsAfter, includingActions: includingActions)
    }
}

extension Snapshot {
    /// Every layer, active and recently reverted, oldest first.
    @available(*, deprecated, renamed: "layers")
    public var entries: [LayerSnapshot] { layers }
}

extension RegistryDelta {
    /// The layers of the seams listed.
    @available(*, deprecated, renamed: "layers")
    public var entries: [LayerSnapshot] { layers }
}

extension Applied {
    /// The layers applied, in the order of the changes.
    @available(*, deprecated, renamed: "layers")
    public var entries: [LayerID] { layers }
}

extension StreamDelta {
    /// What changed in the registry.
    @available(*, deprecated, renamed: "registry")
    public var changes: RegistryDelta {
        get { registry }
        set { registry = newValue }
    }

    /// A delta: the target's header as of now, and what changed in its registry.
    @available(*, deprecated, renamed: "init(target:registry:)")
    public init(target: TargetHeader, changes: RegistryDelta) {
        self.init(target: target, registry: changes)
    }
}

extension SeamSnapshot {
    /// The behaviour calls get now, as text; nil when the seam is its original.
    @available(*, deprecated, renamed: "behaviourText")
    public var behaviour: String? {
        get { behaviourText }
        set { behaviourText = newValue }
    }
}

extension LayerSnapshot {
    /// The layer's behaviour, as text.
    @available(*, deprecated, renamed: "behaviourText")
    public var behaviour: String { behaviourText }
}

extension Change {
    /// The behaviour, as text.
    @available(*, deprecated, renamed: "behaviourText")
    public var behaviourDescription: String { behaviourText }
}

extension ChaosScope {
    /// What the scope does to `seam`, as text; nil when it leaves it alone.
    @available(*, deprecated, renamed: "behaviourText(of:)")
    public func behaviourDescription(of seam: AnySeam) -> String? { behaviourText(of: seam) }
}

// The names issue 46 retired: a layer is never an *entry*, and the public API names what users see (a revert
// finishing), not how the registry frees behaviours.
extension Registry {
    /// Reverts the given layers.
    @available(*, deprecated, renamed: "revert(layers:source:)")
    public func revert(entries: Set<LayerID>, source: String? = nil) {
        revert(layers: entries, source: source)
    }

    /// Finishes the reverts whose last call has returned.
    @available(*, deprecated, renamed: "finishReverting()")
    public func settle() {
        finishReverting()
    }
}

extension Guard.Scope {
    /// The given layers (what one apply applied), while any is active.
    @available(*, deprecated, renamed: "layers")
    public static func entries(_ layers: [LayerID]) -> Guard.Scope { .layers(layers) }
}

extension Profile {
    /// One seam and the spec to apply to it.
    @available(*, deprecated, renamed: "SeamSpec")
    public typealias Entry = SeamSpec
}

extension EnvironmentChaos {
    /// One `SEAM=SPEC` entry.
    @available(*, deprecated, renamed: "SeamSpec")
    public typealias Entry = SeamSpec
}
