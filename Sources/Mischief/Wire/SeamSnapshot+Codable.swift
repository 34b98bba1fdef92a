extension SeamSnapshot: Codable {
    /// A seam as a console lists it, for tests and made-up data: counters, status and actions as given, no layers.
    public init(
        id: SeamID, title: String, category: String, summary: String = "", signature: String = "",
        behaviour: String? = nil, spec: String? = nil, calls: Int = 0, chaosCalls: Int = 0, errors: Int = 0,
        inFlight: Int = 0, held: Int = 0, status: RevertStatus = .neverApplied, actions: [ActionSignature] = [],
        layers: [LayerSnapshot] = [], stacking: Stacking = .replace, isAsync: Bool = false, canThrow: Bool = false
    ) {
        self.init(
            info: SeamInfo(
                id: id, title: title, category: category, summary: summary, stacking: stacking, isAsync: isAsync,
                canThrow: canThrow, signature: signature),
            counters: SeamCounters(
                calls: calls, chaosCalls: chaosCalls, errors: errors, inFlight: inFlight, held: held),
            behaviourText: behaviour, spec: spec, actions: actions, layers: layers, seeds: [], status: status,
            lastCalled: nil)
    }

    /// A short human title, such as "Current date".
    public var title: String { info.title }
    /// The group the console lists the seam under.
    public var category: String { info.category }
    /// One line on what the seam guards.
    public var summary: String { info.summary }
    /// The seam's Swift types, such as `(Void) -> Date`.
    public var signature: String { info.signature }
    /// Calls counted so far.
    public var calls: Int { counters.calls }
    /// Calls a behaviour served.
    public var chaosCalls: Int { counters.chaosCalls }
    /// Errors thrown by behaviours.
    public var errors: Int { counters.errors }
    /// Calls inside a behaviour right now.
    public var inFlight: Int { counters.inFlight }
    /// Calls a pause holds right now.
    public var held: Int { counters.held }

    // The JSON is flat, as `GET /v1/seams` has always sent it: the info's and the counters' fields beside the rest.
    private enum CodingKeys: String, CodingKey {
        case id, title, category, summary, signature, stacking, isAsync, canThrow
        case behaviourText = "behaviour"
        case spec, calls, chaosCalls, errors, inFlight, held, status, actions, layers, seeds, lastCalled, notes,
            heldCalls
    }

    /// Decodes a seam; the fields added after the first API version may be missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(SeamID.self, forKey: .id),
            title: try container.decode(String.self, forKey: .title),
            category: try container.decode(String.self, forKey: .category),
            summary: try container.decodeIfPresent(String.self, forKey: .summary) ?? "",
            signature: try container.decodeIfPresent(String.self, forKey: .signature) ?? "",
            behaviour: try container.decodeIfPresent(String.self, forKey: .behaviourText),
            spec: try container.decodeIfPresent(String.self, forKey: .spec),
            calls: try container.decode(Int.self, forKey: .calls),
            chaosCalls: try container.decode(Int.self, forKey: .chaosCalls),
            errors: try container.decode(Int.self, forKey: .errors),
            inFlight: try container.decode(Int.self, forKey: .inFlight),
            held: try container.decodeIfPresent(Int.self, forKey: .held) ?? 0,
            status: try container.decode(RevertStatus.self, forKey: .status),
            actions: try container.decodeIfPresent([ActionSignature].self, forKey: .actions) ?? [],
            layers: try container.decodeIfPresent([LayerSnapshot].self, forKey: .layers) ?? [],
            stacking: try container.decodeIfPresent(Stacking.self, forKey: .stacking) ?? .replace,
            isAsync: try container.decodeIfPresent(Bool.self, forKey: .isAsync) ?? false,
            canThrow: try container.decodeIfPresent(Bool.self, forKey: .canThrow) ?? false)
        seeds = try container.decodeIfPresent([UInt64].self, forKey: .seeds) ?? []
        lastCalled = try container.decodeIfPresent(Double.self, forKey: .lastCalled).map { .seconds($0) }
        notes = try container.decodeIfPresent([String].self, forKey: .notes) ?? []
        heldCalls = try container.decodeIfPresent([HeldCall].self, forKey: .heldCalls) ?? []
    }

    /// Encodes the seam flat, with `lastCalled` in seconds, and `notes` and `heldCalls` only when there are some.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(info.id, forKey: .id)
        try container.encode(info.title, forKey: .title)
        try container.encode(info.category, forKey: .category)
        try container.encode(info.summary, forKey: .summary)
        try container.encode(info.signature, forKey: .signature)
        try container.encode(info.stacking, forKey: .stacking)
        try container.encode(info.isAsync, forKey: .isAsync)
        try container.encode(info.canThrow, forKey: .canThrow)
        try container.encodeIfPresent(behaviourText, forKey: .behaviourText)
        try container.encodeIfPresent(spec, forKey: .spec)
        try container.encode(counters.calls, forKey: .calls)
        try container.encode(counters.chaosCalls, forKey: .chaosCalls)
        try container.encode(counters.errors, forKey: .errors)
        try container.encode(counters.inFlight, forKey: .inFlight)
        try container.encode(counters.held, forKey: .held)
        try container.encode(status, forKey: .status)
        try container.encode(actions, forKey: .actions)
        try container.encode(layers, forKey: .layers)
        try container.encode(seeds, forKey: .seeds)
        try container.encodeIfPresent(lastCalled?.seconds, forKey: .lastCalled)
        // Only a seam that has notes sends them, so every other seam's JSON is as it was.
        if !notes.isEmpty { try container.encode(notes, forKey: .notes) }
        if !heldCalls.isEmpty { try container.encode(heldCalls, forKey: .heldCalls) }
    }
}
