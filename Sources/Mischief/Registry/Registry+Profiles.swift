import Synchronization

extension Registry {
    /// Checks every entry of `profile` against the registered seams; returns every problem at once.
    ///
    /// - Parameter fileAccess: Which files the profile's specs may read.
    public func problems(in profile: Profile, fileAccess: FileAccess = .unrestricted) -> [ProfileProblem] {
        var problems: [ProfileProblem] = []
        if profile.name.allSatisfy(\.isWhitespace) {
            problems.append(ProfileProblem(entry: nil, seam: nil, specError: nil, message: "a profile needs a name"))
        }
        if let key = profile.key, !(1...9).contains(key) {
            problems.append(ProfileProblem(
                entry: nil, seam: nil, specError: nil, message: "hot key \(key) is not one of 1–9"))
        }
        for (index, entry) in profile.entries.enumerated() {
            do throws(MischiefError) {
                _ = try change(spec: entry.spec, for: entry.seam, seed: profile.seed, fileAccess: fileAccess)
            } catch {
                switch error {
                case .unknownSeam(let id):
                    let known = state.withLock { $0.order.map(\.rawValue) }
                    var message = "no seam '\(id)' is registered"
                    if let close = suggestion(for: id.rawValue, among: known) { message += "; did you mean '\(close)'?" }
                    problems.append(ProfileProblem(entry: index, seam: id, specError: nil, message: message))
                case .invalidSpec(let id, let specError):
                    problems.append(ProfileProblem(entry: index, seam: id, specError: specError, message: specError.message))
                default:
                    problems.append(ProfileProblem(entry: index, seam: entry.seam, specError: nil, message: error.description))
                }
            }
        }
        return problems
    }

    /// Defines (or redefines) a profile after checking it.
    ///
    /// - Parameter fileAccess: Which files its specs may read, now and whenever it is applied; confine profiles
    ///   that come from outside the process.
    /// - Throws: ``MischiefError/invalidProfile(_:problems:)`` listing every problem; nothing is defined then.
    public func define(_ profile: Profile, fileAccess: FileAccess = .unrestricted) throws(MischiefError) {
        let problems = problems(in: profile, fileAccess: fileAccess)
        guard problems.isEmpty else { throw .invalidProfile(profile.name, problems: problems.map(\.description)) }
        state.withLock { state in
            if state.profiles[profile.name] == nil { state.profileOrder.append(profile.name) }
            state.profiles[profile.name] = profile
            state.profileFileAccess[profile.name] = fileAccess == .unrestricted ? nil : fileAccess
        }
    }

    /// Every defined profile, in definition order, with whether it is applied.
    public var profiles: [ProfileStatus] {
        state.withLock { state in
            state.profileOrder.map { name in
                ProfileStatus(profile: state.profiles[name]!, isActive: state.isActive(profile: name))
            }
        }
    }

    /// Applies a defined profile as a unit; applying an active one again does nothing.
    @discardableResult
    public func apply(profile name: String) throws(MischiefError) -> Applied {
        let (profile, active, access) = state.withLock {
            ($0.profiles[name], $0.isActive(profile: name), $0.profileFileAccess[name] ?? .unrestricted)
        }
        guard let profile else { throw .unknownProfile(name) }
        if active, let applied = state.withLock({ $0.appliedProfiles[name] }) { return applied }
        var changes: [Change] = []
        var problems: [String] = []
        for entry in profile.entries {
            do throws(MischiefError) {
                changes.append(try change(spec: entry.spec, for: entry.seam, seed: profile.seed, fileAccess: access))
            } catch {
                problems.append(error.description)
            }
        }
        guard problems.isEmpty else {
            let error = MischiefError.invalidProfile(name, problems: problems)
            report(seam: nil, message: error.description, kind: .refused, source: "profile \(name)")
            throw error
        }
        let applied = try apply(changes, source: "profile \(name)")
        state.withLock { $0.appliedProfiles[name] = applied }
        return applied
    }

    /// Reverts a profile's entries; what lies beneath shows again.
    public func revert(profile name: String) {
        guard let applied = state.withLock({ $0.appliedProfiles.removeValue(forKey: name) }) else { return }
        revert(applied)
    }

    /// Applies the profile when it is off, reverts it when it is on; returns whether it is on afterwards.
    @discardableResult
    public func toggle(profile name: String) throws(MischiefError) -> Bool {
        if state.withLock({ $0.isActive(profile: name) }) {
            revert(profile: name)
            return false
        }
        try apply(profile: name)
        return true
    }

    /// The current state as a profile: for each changed seam, the spec of what calls get now.
    ///
    /// - Returns: The profile, and the seams whose behaviour was built in code (closures) and so cannot be
    ///   written as a spec.
    public func currentState(named name: String, seed: UInt64? = nil) -> (profile: Profile, skipped: [SeamID]) {
        state.withLock { state in
            var entries: [Profile.Entry] = []
            var skipped: [SeamID] = []
            for id in state.order {
                let record = state.records[id]!
                guard !record.layers.isEmpty else { continue }
                let layers = record.seam.info.stacking == .replace ? [record.layers.last!] : record.layers.reversed()
                let specs = layers.compactMap(\.spec)
                guard specs.count == layers.count else {
                    skipped.append(id)
                    continue
                }
                entries.append(Profile.Entry(seam: id, spec: specs.joined(separator: " -> ")))
            }
            return (Profile(name: name, seed: seed, entries: entries), skipped)
        }
    }
}

extension Registry.State {
    func isActive(profile name: String) -> Bool {
        guard let applied = appliedProfiles[name] else { return false }
        return applied.entries.contains { history[$0]?.status == .active }
    }
}
