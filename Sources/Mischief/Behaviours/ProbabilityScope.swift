/// What a probability draws for: each call on its own, or each ``ChaosKey`` once.
///
/// ```swift
/// let flaky = Behaviour<Void, Int, Never>.probability(10, .constant(0))               // 10% of calls
/// let someUsers = Behaviour<Void, Int, Never>.probability(10, per: .key, .constant(0)) // 10% of users, always the same
/// ```
/// In specs, `10% throw("x")` draws per call and `10%@key throw("x")` per key.
public enum ProbabilityScope: String, Hashable, Sendable, CaseIterable {
    /// Each call is an independent draw (`10%` in specs).
    case call
    /// Each key is drawn once, from a hash of the key and the seed (`10%@key` in specs): the same key gets the same
    /// answer on every call and in every run with the same seed; a call without a key never fires.
    ///
    /// The seed is found like any random part's: the behaviour's own, else one derived from the session's (or the
    /// profile's) seed, the seam and the rule, so two keyed rules choose their keys independently. Rules given the
    /// same seed rank the keys the same way: with `seed: 9`, the keys chosen at 5% are among those chosen at 10%,
    /// on any seam, so raising a percentage only adds keys.
    case key
}
