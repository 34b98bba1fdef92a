import Mischief

/// `POST /v1/scopes/apply`, `/v1/scopes/revert` and `/v1/scopes/release` as JSON: a change to the running tests
/// `scope` names (a scope's number, a test's exact name, or a pattern with `*` and `?`), and only those:
/// `{"scope": "*slowRestock*", "seam": "inventory.fetch", "spec": "throw(\"offline\")"}`.
public struct ScopeChangeRequest: Sendable, Codable, Equatable {
    /// The scopes: a number (`3`, `#3`), a test's exact name, or a pattern (`*restock*`).
    public var scope: String
    /// The seam; for a revert or a release, nil means every seam of the scopes.
    public var seam: SeamID?
    /// The behaviour to apply, as spec text (`apply` only).
    public var spec: String?
    /// The seed for the change's random parts; the scope's seed when nil (`apply` only).
    public var seed: UInt64?
    /// What each held call returns or throws, as a spec of the seam (`release` only): a breakpoint's answer.
    public var answer: String?
    /// Whether the pause stays and holds the next call (`release` only); false reverts the pauses applied from
    /// outside, so the rest of the test runs. True when nil.
    public var holdNext: Bool?

    /// A request naming `scope`, `seam`, for an apply the `spec` and its `seed`, for a release its `answer` and
    /// whether the pause holds the next call.
    public init(
        scope: String, seam: SeamID? = nil, spec: String? = nil, seed: UInt64? = nil, answer: String? = nil,
        holdNext: Bool? = nil
    ) {
        self.scope = scope
        self.seam = seam
        self.spec = spec
        self.seed = seed
        self.answer = answer
        self.holdNext = holdNext
    }
}

/// The answer to a change to test scopes: how many layers or held calls it concerned, and the scopes as they are now.
public struct ScopeChangeResult: Sendable, Codable, Equatable {
    /// Layers applied or reverted, or held calls released.
    public var count: Int
    /// The scopes the request named, as the scope table shows them after it.
    public var scopes: [ScopeSnapshot]

    /// An answer: `count` layers or calls, and the `scopes` after.
    public init(count: Int, scopes: [ScopeSnapshot]) {
        self.count = count
        self.scopes = scopes
    }
}
