/// A fixed list of compiled runs (boxes, match rules) that the unspecialised compiled closures can walk cheaply.
///
/// The compiled closures are generic code the compiler does not specialise, and two things there cost far more
/// than the runs themselves, measured on stacked `merge` layers:
/// - Walking a Swift `Array` of closures calls `Array`'s generic entry points, which ask the runtime for the element
///   type's metadata (a function type over the seam's types, or a tuple of them) on every call: a hash-table lookup
///   each time, ~40 ns per element, ~400 ns for a one-rule `match`.
/// - A closure kept in a generic container (an `Array`, an `any Sendable`) is stored at the most general
///   abstraction, so putting it in and taking it out each wrap it in a reabstraction thunk: one more indirect call
///   per level, and a retain and release of the closure taken out on every call.
///
/// So the runs live in final classes (``SyncBox``, ``AsyncBox``, ``CompiledRule``) whose `let` fields keep each closure
/// as the closure it is, and this list holds those objects unretained in memory of its own: reading one needs no
/// metadata, and calling through it no retain (the list owns one reference to each, for its own lifetime).
///
/// Built once when a behaviour is compiled or a seam's layers change (never on a call); immutable afterwards.
final class RunList<Element: AnyObject & Sendable>: @unchecked Sendable {
    // @unchecked: `base` is written in init only and read afterwards; the elements are Sendable.
    private let base: UnsafeMutablePointer<Unmanaged<Element>>
    /// How many elements the list holds.
    let count: Int

    /// A list holding `elements`, in order.
    init(_ elements: [Element]) {
        count = elements.count
        base = UnsafeMutablePointer.allocate(capacity: max(1, elements.count))
        for (index, element) in elements.enumerated() {
            (base + index).initialize(to: Unmanaged.passRetained(element))
        }
    }

    deinit {
        for index in 0..<count { base[index].release() }
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Runs `body` with the element at `index` (which must be in `0..<count`), without retaining it: the list
    /// keeps it alive, and the list is alive while a call uses it.
    @inline(__always)
    func with<Result>(_ index: Int, _ body: (Element) -> Result) -> Result {
        base[index]._withUnsafeGuaranteedRef(body)
    }
}

/// One rule of a compiled `match`: the test, and the box that serves the calls it matches.
final class CompiledRule<Input, Box: AnyObject & Sendable>: @unchecked Sendable {
    // @unchecked: every field is a `let`; `equalityValue` comes from a `Behaviour`, whose `Input` is Sendable (the
    // boxes that keep rules do not say so of their own `Input`).
    let matches: @Sendable (Input) -> Bool
    /// `matches` on the input where it lies.
    let test: @Sendable (UnsafePointer<Input>) -> Bool
    /// The value an equality rule compares with, and its search (``Behaviour/Rule/Equality``); nil for other rules.
    /// Two fields, not a tuple: a closure in a tuple of a generic type is kept at the most general abstraction, and
    /// every call through it would go through reabstraction thunks.
    let equalityValue: Input?
    let equalSearch: EqualSearch?
    let box: Box

    init(_ rule: Behaviour<Input, some Sendable, some Error>.MatchRule, _ box: Box) {
        self.matches = rule.matches
        self.test = rule.test
        self.equalityValue = rule.equality?.value
        self.equalSearch = rule.equality?.firstEqual
        self.box = box
    }
}
