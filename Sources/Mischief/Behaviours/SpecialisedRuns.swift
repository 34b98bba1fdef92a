/// The parts of a compiled behaviour that move values of the seam's own types, built where the seam is declared so
/// that they are compiled for those types.
///
/// The library compiles behaviours once, generically: a closure it builds copies an `Output` through its type's
/// value witnesses and keeps it in a buffer the size of which it learns at run time. A seam's `@inlinable`
/// initialisers build these makers in the declaring module, where `Input` and `Output` are known, so the closures
/// they make move a `Date` as a `Date`: a `Date` seam's `+1 day` transform on half its calls went from 452 to 356
/// instructions a call (`Benchmarks/run.sh`, row `date.shifted.half`). The library's own use of ``forTheseTypes``
/// (for a seam without makers) is the generic form of the same closures. Other nodes are compiled generically. (A
/// transform of the original on every call does not run a compiled behaviour at all: see ``SyncBox/change``.)
@usableFromInline
struct SpecialisedRuns<Input, Output: Sendable, Failure: Error>: Sendable {
    /// `.original`: runs the original and keeps its value or its error.
    let original: @Sendable (@escaping @Sendable (Input) throws(Failure) -> Output) -> SyncRun<Input, Output, Failure>
    /// `.constant(value)`.
    let constant: @Sendable (Output) -> SyncRun<Input, Output, Failure>
    /// `.transform(node, body)`: `body` applied to the value the compiled `node` gives.
    let transform:
        @Sendable (@escaping SyncRun<Input, Output, Failure>, @escaping @Sendable (Output) throws(Failure) -> Output)
            -> SyncRun<Input, Output, Failure>
    /// Two changes of a value in turn: `.transform(.transform(.original, first), second)` as one ``SyncBox/change``.
    let then:
        @Sendable (
            @escaping @Sendable (Output) throws(Failure) -> Output,
            @escaping @Sendable (Output) throws(Failure) -> Output
        ) -> @Sendable (Output) throws(Failure) -> Output

    @usableFromInline
    init(
        original:
            @escaping @Sendable (@escaping @Sendable (Input) throws(Failure) -> Output) -> SyncRun<
                Input, Output, Failure
            >,
        constant: @escaping @Sendable (Output) -> SyncRun<Input, Output, Failure>,
        transform:
            @escaping @Sendable (
                @escaping SyncRun<Input, Output, Failure>, @escaping @Sendable (Output) throws(Failure) -> Output
            ) -> SyncRun<Input, Output, Failure>,
        then:
            @escaping @Sendable (
                @escaping @Sendable (Output) throws(Failure) -> Output,
                @escaping @Sendable (Output) throws(Failure) -> Output
            ) -> @Sendable (Output) throws(Failure) -> Output
    ) {
        self.original = original
        self.constant = constant
        self.transform = transform
        self.then = then
    }

    /// The makers, compiled for the types of the module that inlines this (a seam's initialiser).
    @inlinable
    static var forTheseTypes: Self {
        Self(
            original: { original in
                { input, output, failure in
                    do throws(Failure) {
                        output.initialize(to: try original(input.pointee))
                        return .value
                    } catch {
                        failure.initialize(to: error)
                        return .failure
                    }
                }
            },
            constant: { value in
                { _, output, _ in
                    output.initialize(to: value)
                    return .value
                }
            },
            transform: { run, body in
                { input, output, failure in
                    let fired = run(input, output, failure)
                    guard fired == .value else { return fired }
                    do throws(Failure) {
                        output.initialize(to: try body(output.move()))
                        return .value
                    } catch {
                        failure.initialize(to: error)
                        return .failure
                    }
                }
            },
            then: { first, second in
                { value throws(Failure) in try second(try first(value)) }
            })
    }
}
