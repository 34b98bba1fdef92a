import Foundation
import Mischief
import MischiefConsole
import Synchronization

/// Reads a controller's updates as the console does (each through `Console.update`), so a test waits on what a
/// console would show, with a deadline and a message, and never sleeps.
final class Follower: Sendable {
    private struct Waiter {
        let id: Int
        let condition: @Sendable (ConsoleData) -> Bool
        let continuation: CheckedContinuation<ConsoleData, any Error>
    }

    private struct Shared {
        var state = ConsoleState()
        var waiters: [Waiter] = []
        var nextWaiter = 0
        var updates: [ConsoleUpdate] = []
    }

    private let shared = Mutex(Shared())
    private let reader = Mutex<Task<Void, Never>?>(nil)

    init(_ controller: some ConsoleController) {
        let updates = controller.updates()
        let task = Task { [weak self] in
            for await update in updates { self?.take(update) }
        }
        reader.withLock { $0 = task }
    }

    deinit { reader.withLock { $0?.cancel() } }

    /// The data as the console has it now.
    var data: ConsoleData? { shared.withLock { $0.state.data } }

    /// Every update received so far, in order.
    var updates: [ConsoleUpdate] { shared.withLock { $0.updates } }

    /// Stops reading (the controller's stream ends).
    func stop() { reader.withLock { $0?.cancel() } }

    private func take(_ update: ConsoleUpdate) {
        let ready = shared.withLock { shared -> [(CheckedContinuation<ConsoleData, any Error>, ConsoleData)] in
            shared.updates.append(update)
            _ = Console.update(&shared.state, .update(update))
            guard let data = shared.state.data else { return [] }
            let ready = shared.waiters.filter { $0.condition(data) }
            shared.waiters.removeAll { $0.condition(data) }
            return ready.map { ($0.continuation, data) }
        }
        for (continuation, data) in ready { continuation.resume(returning: data) }
    }

    /// The console's data once `condition` holds of it (at once when it already does).
    ///
    /// - Throws: `FollowerTimeout` naming `what` when it has not held within `limit`.
    @discardableResult
    func until(
        _ what: String, within limit: Duration = .seconds(30),
        _ condition: @escaping @Sendable (ConsoleData) -> Bool
    ) async throws -> ConsoleData {
        let id = shared.withLock { shared in
            shared.nextWaiter += 1
            return shared.nextWaiter
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: limit)
            guard !Task.isCancelled, let self else { return }
            let (waiter, data) = self.shared.withLock { shared in
                let waiter = shared.waiters.first { $0.id == id }
                shared.waiters.removeAll { $0.id == id }
                return (waiter, shared.state.data)
            }
            waiter?.continuation.resume(
                throwing: FollowerTimeout(
                    "the console did not show \(what) within \(limit); it shows generation "
                        + "\(data?.generation ?? 0), \(data.map { "\($0.connection)" } ?? "no data")"))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let now = shared.withLock { shared -> ConsoleData? in
                if let data = shared.state.data, condition(data) { return data }
                shared.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// The console's data once it is of `generation` or later: what a command that answered `generation` shows.
    @discardableResult
    func reached(_ generation: UInt64, within limit: Duration = .seconds(30)) async throws -> ConsoleData {
        try await until("generation \(generation)", within: limit) { $0.generation >= generation }
    }
}

struct FollowerTimeout: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
