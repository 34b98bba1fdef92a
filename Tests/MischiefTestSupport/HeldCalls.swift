import Mischief

// `waitUntilHeld` with a deadline and a message: the library's own waits for held calls wait as long as it takes, so a
// test whose call never reaches the pause would hang the suite instead of failing.

extension PauseGate {
    /// Returns once `count` calls are held at this gate.
    ///
    /// - Throws: `Poll.Failure` saying how many were awaited when they are not held within a minute.
    public func held(_ count: Int = 1) async throws {
        try await Deadline.wait(for: "\(count) call(s) held at the pause gate (\(heldCount) held)") {
            try await self.waitUntilHeld(count)
        }
    }
}

extension Registry {
    /// Returns once `count` calls of `seam` are held by a pause.
    ///
    /// - Throws: what `waitUntilHeld` throws (nothing applied pauses `seam`), or `Poll.Failure` saying what was
    ///   awaited when the calls are not held within a minute.
    public func held(_ seam: SeamID, _ count: Int = 1) async throws {
        try await Deadline.wait(for: "\(count) call(s) of \(seam) held by a pause") {
            try await self.waitUntilHeld(seam, count)
        }
    }
}

extension ChaosScope {
    /// Returns once `count` calls of `seam` are held by this scope's pause.
    ///
    /// - Throws: what `waitUntilHeld` throws, or `Poll.Failure` saying what was awaited when the calls are not held
    ///   within a minute.
    public func held(_ seam: AnySeam, _ count: Int = 1) async throws {
        try await Deadline.wait(for: "\(count) call(s) of \(seam.info.id) held in scope \(self)") {
            try await self.waitUntilHeld(seam, count)
        }
    }
}
