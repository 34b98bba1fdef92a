/// One call to a synchronous seam, as a ``Behaviour/closure(_:)`` sees it.
public struct Call<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
    /// The input the caller passed.
    public let input: Input
    /// The zero-based index of this call among the calls that reached this behaviour.
    public let index: Int
    /// The seam being called.
    public let seam: SeamID
    let callOriginal: @Sendable (Input) throws(Failure) -> Output
    let reporter: EventReporter

    /// Runs the seam's original behaviour with the caller's input.
    public func original() throws(Failure) -> Output { try callOriginal(input) }

    /// Runs the seam's original behaviour with another input.
    public func original(_ input: Input) throws(Failure) -> Output { try callOriginal(input) }

    /// Adds a line to the registry's event log ("mutated name: Ann → ∅", "answered GET /weather").
    public func report(_ message: String) { reporter.report(message) }
}

/// One call to an ``AsyncSeam``, as a ``Behaviour/asyncClosure(_:)`` sees it.
public struct AsyncCall<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
    /// The input the caller passed.
    public let input: Input
    /// The zero-based index of this call among the calls that reached this behaviour.
    public let index: Int
    /// The seam being called.
    public let seam: SeamID
    let callOriginal: @Sendable (Input) async throws(Failure) -> Output
    let reporter: EventReporter

    /// Runs the seam's original behaviour with the caller's input.
    public func original() async throws(Failure) -> Output { try await callOriginal(input) }

    /// Runs the seam's original behaviour with another input.
    public func original(_ input: Input) async throws(Failure) -> Output { try await callOriginal(input) }

    /// Adds a line to the registry's event log.
    public func report(_ message: String) { reporter.report(message) }
}

/// Where a behaviour's reports go: the registry's event log, tagged with the seam.
struct EventReporter: Sendable {
    let seam: SeamID
    let sink: @Sendable (SeamID, String) -> Void

    func report(_ message: String) { sink(seam, message) }
}
