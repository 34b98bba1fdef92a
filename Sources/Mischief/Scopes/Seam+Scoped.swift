import Synchronization

// The call path while a ChaosScope is active somewhere: the task's scopes first, then the registry.

extension Seam {
    /// A call made while some scope is active: the calling task's scopes decide first, innermost first; a call
    /// they pass through goes to the registry's behaviour, then the original. Calls in a recording scope are
    /// recorded, peeks are not.
    @usableFromInline
    func scopedCall(_ input: Input, word: UInt, counted: Bool) throws(Failure) -> Output {
        var served = false
        guard let scope = ChaosScope.current else {
            return try registryCall(input, word: word, counted: counted, served: &served)
        }
        let (boxes, records) = scope.plan(for: self)
        var server = RecordedCall.Server.original
        var result: Result<Output, Failure>?
        for (box, description) in boxes {
            if let fired = unsafeDowncast(box, to: SyncBox<Input, Output, Failure>.self).fire(input) {
                if counted && word & SeamCore.countingBit != 0 { core.countPlain() }
                server = .scope(description)
                result = fired
                break
            }
        }
        if result == nil {
            do throws(Failure) {
                let output = try registryCall(
                    input, word: core.word.load(ordering: .relaxed), counted: counted, served: &served)
                result = .success(output)
            } catch {
                result = .failure(error)
            }
            if served { server = .registry }
        }
        let outcome = result.unsafelyUnwrapped
        if counted && records { scope.record(self, input: input, result: outcome, servedBy: server) }
        return try outcome.get()
    }
}

extension AsyncSeam {
    /// A call made while some scope is active; see ``Seam``'s.
    @usableFromInline
    func scopedCall(_ input: Input, word: UInt, counted: Bool) async throws(Failure) -> Output {
        var served = false
        guard let scope = ChaosScope.current else {
            return try await registryCall(input, word: word, counted: counted, served: &served)
        }
        let (boxes, records) = scope.plan(for: self)
        var server = RecordedCall.Server.original
        var result: Result<Output, Failure>?
        for (box, description) in boxes {
            var output: Output?
            var failure: Failure?
            let fired = await unsafeDowncast(box, to: AsyncBox<Input, Output, Failure>.self).run(
                input, &output, &failure)
            guard fired != .skipped else { continue }
            if counted && word & SeamCore.countingBit != 0 { core.countPlain() }
            server = .scope(description)
            result = fired == .value ? .success(output.unsafelyUnwrapped) : .failure(failure.unsafelyUnwrapped)
            break
        }
        if result == nil {
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
        if counted && records { scope.record(self, input: input, result: outcome, servedBy: server) }
        return try outcome.get()
    }
}

extension ChaosScope {
    /// Records one call with the calling task's identity.
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
