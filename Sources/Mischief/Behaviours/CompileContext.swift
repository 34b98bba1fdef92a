import Synchronization

/// What turning a behaviour into a runnable closure needs from its seam and registry.
final class CompileContext<Failure: Error>: @unchecked Sendable {
    // @unchecked: used by one thread while compiling, under the registry's lock; only `reporter` and the
    // seed values escape into the compiled closures.
    let seam: SeamID
    let isAsync: Bool
    let makeFailure: (@Sendable (String) -> Failure)?
    let reporter: EventReporter
    /// Whether a `crash` behaviour may be compiled (the registry allows crashes).
    let allowsCrash: Bool
    private let baseSeed: UInt64
    private var ordinal: UInt64 = 0
    /// Every seed the behaviour uses, in the order its random parts were compiled.
    private(set) var seeds: [UInt64] = []
    /// Every pause the behaviour holds calls at, so the registry can release and close them.
    private(set) var pauses: [PauseSite] = []
    /// Where the behaviour's delays wait, so the registry can end the waits when the behaviour goes.
    private(set) var delays: [PauseSite] = []

    init(
        seam: SeamID, isAsync: Bool, makeFailure: (@Sendable (String) -> Failure)?, sessionSeed: UInt64,
        reporter: EventReporter, allowsCrash: Bool = false
    ) {
        self.allowsCrash = allowsCrash
        self.seam = seam
        self.isAsync = isAsync
        self.makeFailure = makeFailure
        self.reporter = reporter
        self.baseSeed = sessionSeed ^ SeededGenerator.hash(seam.rawValue)
    }

    /// The seed for a random part: its own when given, else one derived from the session seed, the seam and
    /// the part's position, so the same profile gives the same values in every run with the same session seed.
    func seed(_ explicit: UInt64?) -> UInt64 {
        defer { ordinal += 1 }
        var derived = SeededGenerator(seed: baseSeed, stream: ordinal)
        let seed = explicit ?? derived.next()
        seeds.append(seed)
        return seed
    }

    /// A place for a pause to hold its calls, on `gate` or on a gate of its own.
    func pauseSite(gate: PauseGate?, max: Duration) -> PauseSite {
        let site = PauseSite(gate: gate ?? PauseGate(), max: max)
        pauses.append(site)
        return site
    }

    /// A place for a delay to wait: a site of its own, whose every wait ends at `duration` (or when the behaviour
    /// goes); not a pause, so neither counted as held nor released with the seam's held calls.
    func delaySite(_ duration: Duration) -> PauseSite {
        let site = PauseSite(gate: PauseGate(), max: duration)
        delays.append(site)
        return site
    }

    func failure(_ message: String) throws(MischiefError) -> Failure {
        guard let makeFailure else {
            throw .unsupported(seam, "this seam cannot throw, so 'throw(\(quoted(message)))' cannot apply here")
        }
        return makeFailure(message)
    }

    /// Refuses a `crash` behaviour unless crashes are allowed, saying how to allow them.
    func checkCrashAllowed(_ message: String) throws(MischiefError) {
        guard !allowsCrash else { return }
        throw .unsupported(
            seam,
            "'crash(\(quoted(message)))' would end the process, and this target does not allow it; "
                + "start the target with MISCHIEF_ALLOW_CRASH=1 (or set Registry.allowsCrash, or start its control "
                + "server with allowCrash: true)")
    }

    func unsupported(_ message: String) -> MischiefError { .unsupported(seam, message) }
}

/// A counter shared by the calls that reach one part of a behaviour (call indices, first-N, sequences).
///
/// Only behaviours that need an index have one, so a plain constant never touches a shared cache line.
final class CallCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Returns this call's zero-based index.
    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// Decides one probability draw for call number `index` (0% never fires, 100% always does).
func fires(percent: Double, seed: UInt64, index: Int) -> Bool {
    if percent >= 100 { return true }
    if percent <= 0 { return false }
    var generator = SeededGenerator(seed: seed, stream: UInt64(index))
    let unit = Double(generator.next() >> 11) * 0x1p-53
    return unit * 100 < percent
}

/// Decides one keyed probability draw: the same `key` and `seed` always give the same answer, different keys
/// spread uniformly, and a key chosen at some percentage is chosen at every higher one. No key (nil or empty) never
/// fires, not even at 100%: a call made for no user is not among "100% of users".
func fires(percent: Double, seed: UInt64, key: String?) -> Bool {
    guard let key, !key.isEmpty else { return false }
    if percent >= 100 { return true }
    if percent <= 0 { return false }
    var generator = SeededGenerator(mixing: seed, SeededGenerator.hash(key))
    let unit = Double(generator.next() >> 11) * 0x1p-53
    return unit * 100 < percent
}
