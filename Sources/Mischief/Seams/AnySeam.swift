import Synchronization

/// Any seam, whatever its types: what ``Registry/register(_:)-(AnySeam...)`` takes.
///
/// `AnySeam` is a public class that is not `open`: ``Seam`` and ``AsyncSeam`` are its only subclasses, and the
/// compiler refuses a subclass or a conformance written outside Mischief (`cannot inherit from non-open class
/// 'AnySeam' outside of its module`). So every value the registry receives is a seam it knows how to install:
/// there is no foreign seam for it to refuse or crash on. Declare seams with `Seam` or `AsyncSeam`, and use
/// `[AnySeam]` to hold seams of different types together:
/// ```swift
/// let seams: [AnySeam] = [clockNow, fetchUser]
/// try registry.register(seams)
/// ```
public class AnySeam: @unchecked Sendable {
    // @unchecked: every stored property here and in the two subclasses is a `let` of a Sendable type.

    /// The seam's id, titles and kind.
    public let info: SeamInfo
    /// The signatures of the actions specs can use on it, its own first.
    public let actionSignatures: [ActionSignature]
    @usableFromInline let core = SeamCore()
    /// A copy of the core's word (``SeamCore/word``), kept here so that a call tests it with one load from the seam
    /// it already holds, not two dependent ones (the core, then its word): what a seam with nothing applied costs.
    ///
    /// Only the core writes it, under its lock, right after each store of its own word (``SeamCore/copyWord(to:)``).
    /// It is a hint, never the authority: a call that finds it zero runs the original, as a call that loaded a word
    /// a moment older would; a call that finds it non-zero takes the chaos path, which reloads the core's word
    /// after announcing itself and uses only what that reload names (``SeamCore/enter(_:counted:mayMigrate:)``), so
    /// the freeing protocol never depends on this copy.
    @usableFromInline let word = Atomic<UInt>(0)

    init(info: SeamInfo, actionSignatures: [ActionSignature]) {
        self.info = info
        self.actionSignatures = actionSignatures
        core.copyWord(to: self)
    }

    deinit {
        core.stopCopyingWord()  // the core may outlive the seam (a registry's list of touched cores, a numbering)
    }

    /// Calls `body` after every apply or revert that changes what this seam does, outside the registry's lock.
    ///
    /// For catalogue families whose state outlives a call, such as the chaos clock's sleepers, which must be
    /// rescheduled when time is shifted, frozen or given back. `body` runs on the thread that applied or
    /// reverted; keep it short.
    public final func onChange(_ body: @escaping @Sendable () -> Void) {
        core.addChangeListener(body)
    }

    /// Makes the calls `counting` counts part of this seam's counters: for a seam whose calls are made outside Swift
    /// (a system seam's C hooks), which counts them itself while the registry asks it to. Set once, before the seam
    /// is registered.
    package final func countsExternally(_ counting: ExternalCounting) {
        core.setExternal(counting)
    }

    /// Counts one error for a call of this seam that has already returned, when its caller learns only afterwards
    /// that it failed: a network request the seam let through that the network refused, or answered with a 5xx.
    /// Guards (`errors(SEAM) > 50% over 10s`, `no-success(SEAM) for 10s`) and consoles see it as they see a thrown
    /// error. Counted only while the seam's calls are (someone observes, a guard reads them, or a behaviour is
    /// applied), so errors never outnumber calls.
    public final func countFailure() {
        #if Chaos
            if core.countsCalls { core.countError() }
        #endif
    }

    /// Whether a call made now is counted: someone observes, a guard reads the seam, or a behaviour is applied.
    /// Families whose calls bypass the seam when nothing is applied (the network's URL protocol) take them while
    /// this holds, so every call is counted where consoles and guards look.
    package final var countsCalls: Bool {
        #if Chaos
            core.countsCalls
        #else
            false
        #endif
    }

    // The installation hooks below are overridden by `Seam` and `AsyncSeam`, the only subclasses there can be.

    /// Compiles one change's behaviour into a run closure for this seam (type-erased).
    func compile(_ behaviour: any Sendable, context: LayerContext) throws(MischiefError) -> any Sendable {
        preconditionFailure("\(info.id): AnySeam.compile is overridden by Seam and AsyncSeam")
    }

    /// Builds the behaviour a spec describes, and the spec's canonical text.
    func behaviour(
        from spec: Spec, seed: UInt64?, sessionSeed: UInt64, fileAccess: FileAccess
    ) throws(SpecError) -> (behaviour: any Sendable, canonical: String) {
        preconditionFailure("\(info.id): AnySeam.behaviour(from:) is overridden by Seam and AsyncSeam")
    }

    /// Combines the compiled runs of the active layers, newest first, into the box calls will use.
    func makeBox(layers: [any Sendable]) -> AnyObject {
        preconditionFailure("\(info.id): AnySeam.makeBox is overridden by Seam and AsyncSeam")
    }

    /// The box for `layers` (newest first, perhaps none) whose calls take their numbers from `numbering`, for a
    /// recording or a replay: it also notes each call's decision on the tape it returns (with a tape `context`), and
    /// tells a replay's `trigger` of each call; peeks run the plain box and take no number.
    func numberedBox(
        layers: [any Sendable], tape context: TapContext?, trigger: ReplayTrigger?, numbering: CallNumbering
    ) -> (box: AnyObject, tape: (any DecisionSource)?) {
        preconditionFailure("\(info.id): AnySeam.numberedBox is overridden by Seam and AsyncSeam")
    }
}

/// What a tape is made with: the layers its marks name.
struct TapContext {
    /// The layers, newest first.
    var layers: [LayerID]
}

/// What the registry needs from a seam to install behaviours on it; every ``AnySeam`` provides it.
protocol RegisteredSeam: AnySeam {
    var core: SeamCore { get }
    func compile(_ behaviour: any Sendable, context: LayerContext) throws(MischiefError) -> any Sendable
    func behaviour(
        from spec: Spec, seed: UInt64?, sessionSeed: UInt64, fileAccess: FileAccess
    ) throws(SpecError) -> (behaviour: any Sendable, canonical: String)
    func makeBox(layers: [any Sendable]) -> AnyObject
    func numberedBox(
        layers: [any Sendable], tape context: TapContext?, trigger: ReplayTrigger?, numbering: CallNumbering
    ) -> (box: AnyObject, tape: (any DecisionSource)?)
}

extension AnySeam: RegisteredSeam {}
