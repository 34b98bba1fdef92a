import Foundation
import Synchronization

/// Awaits something that cannot be polled (a task's value, a library's `waitUntil…`) with a deadline of real time,
/// so a test whose awaited event never comes fails saying what it waited for instead of hanging the suite.
public enum Deadline {
    /// The value of `operation`, or `Poll.Failure` naming `what` when it has not finished within `limit`.
    ///
    /// The operation runs in a task of its own, cancelled when the deadline passes or the caller is cancelled; one
    /// that ignores cancellation is left behind, and the test goes on to fail.
    ///
    /// - Parameters:
    ///   - what: what is awaited, for the failure message ("the sleeper to sleep on the clock").
    ///   - limit: a minute by default: generous for a loaded machine, and a wait that succeeds costs no more for it.
    public static func value<T: Sendable>(
        of what: String, within limit: Duration = .seconds(60),
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = Race<T>()
        let work = Task {
            do { race.end(with: .success(try await operation())) } catch { race.end(with: .failure(error)) }
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            guard !Task.isCancelled else { return }
            // First the failure, then the cancellation, so the operation's CancellationError is not what fails.
            race.end(with: .failure(Poll.Failure(description: "timed out after \(limit) waiting for \(what)")))
            work.cancel()
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { race.wait(with: $0) }
        } onCancel: {
            work.cancel()
        }
    }

    /// Waits for `operation` to finish, failing with a message naming `what` when it has not within `limit`.
    public static func wait(
        for what: String, within limit: Duration = .seconds(60),
        _ operation: @escaping @Sendable () async throws -> Void
    ) async throws {
        try await value(of: what, within: limit, operation)
    }
}

/// The first of two ends of a wait (the operation's, the deadline's) is its result; the other is dropped.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
    }

    private let state = Mutex(State())

    /// Resumes `continuation` with the result, now if there is one, else when it comes.
    func wait(with continuation: CheckedContinuation<T, any Error>) {
        let result = state.withLock { state -> Result<T, any Error>? in
            guard let result = state.result else {
                state.continuation = continuation
                return nil
            }
            return result
        }
        if let result { continuation.resume(with: result) }
    }

    /// Makes `result` the result, unless there is one already.
    func end(with result: Result<T, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>?? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil }
            return .some(state.continuation)
        }
        continuation??.resume(with: result)
    }
}
