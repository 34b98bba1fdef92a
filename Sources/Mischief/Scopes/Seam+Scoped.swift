import Synchronization

// The call path while a ChaosScope is active somewhere: the task's scopes first, then the registry.

extension Seam {
    /// A call made in `scope`: the task's scopes decide first, innermost first; a call they pass through goes to
    /// the registry's behaviour, then the original. Calls in a recording scope are recorded, peeks are not.
    // Inlinable so that it is specialised for the seam's types; never inlined, so the call path it hangs off
    // stays small enough to inline where seams are called.
    @inlinable @inline(never)
    func scopedCall(_ input: Input, scope: ChaosScope, counted: Bool) throws(Failure) -> Output {
        var server = RecordedCall.Server.original
        var result: Result<Output, Failure>?
        if counted { scope.enter(self) }
        let ticket = counted ? scope.replayTicket(for: self) : nil
        var firedIn: ChaosScope?
        var next: ChaosScope? = scope
        while let current = next, result == nil {
            if let (box, description) = current.layer(for: self), !KillSwitch.isEngaged,
                let fired = unsafeDowncast(box, to: SyncBox<Input, Output, Failure>.self).fire(input)
            {
                if counted { core.countPlainIfCounting() }
                server = .scope(description)
                result = fired
                firedIn = current
            }
            next = current.parent
        }
        if result == nil {
            var served = false
            do throws(Failure) {
                let word = core.word.load(ordering: .relaxed)
                result = .success(try registryCall(input, word: word, counted: counted, served: &served))
            } catch {
                result = .failure(error)
            }
            if served { server = .registry }
        }
        let outcome = result.unsafelyUnwrapped
        if counted && scope.recordsCalls { scope.record(self, input: input, result: outcome, servedBy: server) }
        if let ticket { ticket.replayer.leave(ticket, result: outcome, fired: firedIn === ticket.scope) }
        return try outcome.get()
    }
}

extension AsyncSeam {
    /// A call made in `scope`; see ``Seam``'s.
    func scopedCall(_ input: Input, scope: ChaosScope, counted: Bool) async throws(Failure) -> Output {
        var server = RecordedCall.Server.original
        var result: Result<Output, Failure>?
        if counted { scope.enter(self) }
        let ticket = counted ? scope.replayTicket(for: self) : nil
        var firedIn: ChaosScope?
        var next: ChaosScope? = scope
        while let current = next, result == nil {
            next = current.parent
            guard let (box, description) = current.layer(for: self), !KillSwitch.isEngaged else { continue }
            var output: Output?
            var failure: Failure?
            let fired = await unsafeDowncast(box, to: AsyncBox<Input, Output, Failure>.self).run(
                input, &output, &failure)
            guard fired != .skipped else { continue }
            if counted { core.countPlainIfCounting() }
            server = .scope(description)
            result = fired == .value ? .success(output.unsafelyUnwrapped) : .failure(failure.unsafelyUnwrapped)
            firedIn = current
        }
        if result == nil {
            var served = false
            do throws(Failure) {
                let output = try await registryCall(
                    input, word: core.word.load(ordering: .relaxed), counted: counted, served: &served)
                result = .success(output)
            } catch {
                result = .failure(error)
            }
            if served { server = .registry }
        }
        let outcome = result.unsafelyUnwrapped
        if counted && scope.recordsCalls { scope.record(self, input: input, result: outcome, servedBy: server) }
        if let ticket { ticket.replayer.leave(ticket, result: outcome, fired: firedIn === ticket.scope) }
        return try outcome.get()
    }
}

extension ChaosScope {
    /// The call's number in the replay of the innermost scope around it that replays a recording (after making the
    /// steps due before it); nil when none does.
    @usableFromInline
    func replayTicket(for seam: AnySeam) -> ReplayTicket? {
        var next: ChaosScope? = self
        while let current = next {
            if let replayer = current.replayer { return replayer.enter(seam, scope: current) }
            next = current.parent
        }
        return nil
    }

    /// Records one call with the calling task's identity.
    @usableFromInline
    func record<Input: Sendable, Output: Sendable, Failure: Error>(
        _ seam: AnySeam, input: Input, result: Result<Output, Failure>, servedBy: RecordedCall.Server
    ) {
        let outcome: RecordedCall.Outcome
        switch result {
        case .success(let output): outcome = .returned(output)
        case .failure(let error): outcome = .threw(error)
        }
        record(
            seam: seam.info.id, input: input, outcome: outcome, servedBy: servedBy,
            task: withUnsafeCurrentTask { $0?.hashValue })
    }
}
