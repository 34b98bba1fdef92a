extension Registry {
    /// Checks every entry of `profile` against the registered seams; returns every problem at once.
    ///
    /// - Parameters:
    ///   - profile: The profile to check; nothing is defined or applied.
    ///   - fileAccess: Which files the profile's specs may read.
    public func problems(in profile: Profile, fileAccess: FileAccess = .unrestricted) -> [ProfileProblem] {
        var problems: [ProfileProblem] = []
        if profile.name.allSatisfy(\.isWhitespace) {
            problems.append(ProfileProblem(entry: nil, seam: nil, specError: nil, message: "a profile needs a name"))
        }
        if let key = profile.key, !(1...9).contains(key) {
            problems.append(
                ProfileProblem(
                    entry: nil, seam: nil, specError: nil, message: "hot key \(key) is not one of 1–9"))
        }
        if let ttl = profile.ttl, (try? Self.check(ttl: ttl)) == nil {
            problems.append(
                ProfileProblem(
                    entry: nil, seam: nil, specError: nil, message: MischiefError.invalidTTL(ttl).description))
        }
        for (index, text) in profile.guards.enumerated() {
            do throws(SpecError) {
                let rule = try Guard(parsing: text, reverts: .profile(profile.name))
                do throws(MischiefError) {
                    try state.withLock { (state) throws(MischiefError) in try state.check(rule) }
                } catch {
                    let message = "guard \(index + 1): \(error.description)"
                    problems.append(
                        ProfileProblem(entry: nil, seam: rule.condition.seam, specError: nil, message: message))
                }
            } catch {
                problems.append(
                    ProfileProblem(
                        entry: nil, seam: nil, specError: error, message: "guard \(index + 1): \(error.message)"))
            }
        }
        for (index, entry) in profile.entries.enumerated() {
            do throws(MischiefError) {
                try Self.check(ttl: entry.ttl)
                _ = try change(spec: entry.spec, for: entry.seam, seed: profile.seed, fileAccess: fileAccess)
            } catch {
                switch error {
                case .unknownSeam(let id):
                    let message = unknownSeamMessage(id, among: state.withLock { $0.order })
                    problems.append(ProfileProblem(entry: index, seam: id, specError: nil, message: message))
                case .invalidSpec(let id, let specError):
                    problems.append(
                        ProfileProblem(entry: index, seam: id, specError: specError, message: specError.message))
                default:
                    problems.append(
                        ProfileProblem(entry: index, seam: entry.seam, specError: nil, message: error.description))
                }
            }
        }
        return problems
    }

    /// Defines (or redefines) a profile after checking it.
    ///
    /// - Parameters:
    ///   - profile: The profile; a profile of the same name is replaced.
    ///   - fileAccess: Which files its specs may read, now and whenever it is applied; confine profiles
    ///     that come from outside the process.
    /// - Throws: ``MischiefError/invalidProfile(_:problems:)`` listing every problem, or
    ///   ``MischiefError/tooManyGuards(limit:)`` when its guards and the others would pass ``guardLimit``; nothing is
    ///   defined then.
    public func define(_ profile: Profile, fileAccess: FileAccess = .unrestricted) throws(MischiefError) {
        let problems = problems(in: profile, fileAccess: fileAccess)
        guard problems.isEmpty else { throw .invalidProfile(profile.name, problems: problems.map(\.description)) }
        let guards = profile.guards.compactMap { try? Guard(parsing: $0, reverts: .profile(profile.name)) }
        let time = now
        try state.withLock { (state) throws(MischiefError) in
            try state.checkRoom(forGuardsOfProfile: profile.name, count: guards.count)
            if (state.profiles[profile.name]?.guards ?? []) != profile.guards {
                state.setGuards(ofProfile: profile.name, guards, time: time)
            }
            state.profiles.define(profile, fileAccess: fileAccess)
            state.generations.profilesChanged()
        }
        if !guards.isEmpty { expiry?.wake() }
    }

    /// Every defined profile, in definition order, with whether it is applied.
    public var profiles: [ProfileStatus] {
        state.withLock { $0.profileStatuses }
    }

    /// Applies a defined profile as a unit; applying an active one again does nothing.
    ///
    /// Deciding and acting are one step under the registry's lock, so profiles changed from several threads at
    /// once (apply, revert, toggle) never leave layers that no revert reaches.
    ///
    /// - Parameters:
    ///   - name: The defined profile's name.
    ///   - ttl: A time to live for every entry, instead of the ones the profile gives (``Profile/ttl``,
    ///     ``SeamSpec/ttl``); nil for those.
    @discardableResult
    public func apply(profile name: String, ttl: Duration? = nil) throws(MischiefError) -> Applied {
        try Self.check(ttl: ttl)
        while true {
            let profile = try defined(name)
            let changes = try changes(for: profile)
            let ttls = ttl.map { Array(repeating: $0, count: changes.count) } ?? profile.entryTTLs
            let time = now
            let outcome = try state.withLock { (state) throws(MischiefError) -> (Applied, [SeamCore])? in
                guard state.profiles[name] == profile else { return nil }  // redefined meanwhile: build again
                if state.isActive(profile: name), let applied = state.appliedProfiles[name] { return (applied, []) }
                return try state.apply(
                    profile: name, changes, time: time, sessionSeed: sessionSeed, reporter: reporter, ttls: ttls)
            }
            guard let (applied, touched) = outcome else { continue }
            for core in touched { core.notifyChanged() }
            if ttls.contains(where: { $0 != nil }) || !profile.guards.isEmpty { expiry?.wake() }
            return applied
        }
    }

    /// Reverts the layers a profile applied; what lies beneath shows again. `source` says who asks, for the events
    /// (`reverted l10n.string ar-XB (applied by profile Right-to-left) [console]`); nil is the profile itself.
    public func revert(profile name: String, source: String? = nil) {
        let time = now
        let touched = state.withLock { state in
            guard let applied = state.appliedProfiles.removeValue(forKey: name) else { return [SeamCore]() }
            return state.revert(layers: Set(applied.layers), time: time, source: source)
        }
        for core in touched { core.notifyChanged() }
    }

    /// Applies the profile when it is off, reverts it when it is on; returns whether it is on afterwards.
    ///
    /// One step under the registry's lock, like ``apply(profile:ttl:)``: of two toggles at once, one applies and the
    /// other reverts.
    ///
    /// - Parameters:
    ///   - name: The profile's name.
    ///   - source: Who asks, for the events of a revert (nil: the profile itself).
    @discardableResult
    public func toggle(profile name: String, source: String? = nil) throws(MischiefError) -> Bool {
        while true {
            if state.withLock({ $0.isActive(profile: name) }) {
                let time = now
                let touched = state.withLock { state -> [SeamCore]? in
                    guard state.isActive(profile: name), let applied = state.appliedProfiles[name] else { return nil }
                    state.appliedProfiles[name] = nil
                    return state.revert(layers: Set(applied.layers), time: time, source: source)
                }
                guard let touched else { continue }  // reverted meanwhile: decide again
                for core in touched { core.notifyChanged() }
                return false
            }
            let profile = try defined(name)
            let changes = try changes(for: profile)
            let time = now
            let touched = try state.withLock { (state) throws(MischiefError) -> [SeamCore]? in
                guard state.profiles[name] == profile, !state.isActive(profile: name) else { return nil }
                return try state.apply(
                    profile: name, changes, time: time, sessionSeed: sessionSeed, reporter: reporter,
                    ttls: profile.entryTTLs
                ).1
            }
            guard let touched else { continue }  // applied or redefined meanwhile: decide again
            for core in touched { core.notifyChanged() }
            if profile.entryTTLs.contains(where: { $0 != nil }) || !profile.guards.isEmpty { expiry?.wake() }
            return true
        }
    }

    /// The definition of profile `name`.
    private func defined(_ name: String) throws(MischiefError) -> Profile {
        guard let profile = state.withLock({ $0.profiles[name] }) else { throw .unknownProfile(name) }
        return profile
    }

    /// Parses every entry of `profile` into a change; reports and throws every problem at once.
    private func changes(for profile: Profile) throws(MischiefError) -> [Change] {
        // A profile defined over the control API stays confined to the files its definer could read.
        let access = state.withLock { $0.profiles.fileAccess(of: profile.name) }
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
            let error = MischiefError.invalidProfile(profile.name, problems: problems)
            report(seam: nil, message: error.description, kind: .refused, source: "profile \(profile.name)")
            throw error
        }
        return changes
    }

    /// The current state as a profile: for each changed seam, the spec of what calls get now.
    ///
    /// - Returns: The profile, and the seams whose behaviour was built in code (closures) and so cannot be
    ///   written as a spec.
    public func currentState(named name: String, seed: UInt64? = nil) -> (profile: Profile, skipped: [SeamID]) {
        state.withLock { state in
            var entries: [SeamSpec] = []
            var skipped: [SeamID] = []
            for id in state.order {
                let record = state.records[id]!
                guard !record.layers.isEmpty else { continue }
                guard let spec = record.spec else {
                    skipped.append(id)
                    continue
                }
                entries.append(SeamSpec(seam: id, spec: spec))
            }
            return (Profile(name: name, seed: seed, entries: entries), skipped)
        }
    }
}

extension Registry.State {
    /// Applies a profile's changes and remembers the handle, in the same step.
    mutating func apply(
        profile name: String, _ changes: [Change], time: Duration, sessionSeed: UInt64,
        reporter: @escaping @Sendable (SeamID, String) -> Void, ttls: [Duration?] = []
    ) throws(MischiefError) -> (Applied, [SeamCore]) {
        let (applied, touched) = try apply(
            changes, source: "profile \(name)", time: time, sessionSeed: sessionSeed, reporter: reporter, ttls: ttls)
        appliedProfiles[name] = applied
        rearmGuards(ofProfile: name, time: time)
        return (applied, touched)
    }

    var profileStatuses: [ProfileStatus] {
        profiles.order.map { name in ProfileStatus(profile: profiles[name]!, isActive: isActive(profile: name)) }
    }

    func isActive(profile name: String) -> Bool {
        guard let applied = appliedProfiles[name] else { return false }
        return applied.layers.contains { history[$0]?.status == .active }
    }
}
