extension Registry {
    /// The profiles a registry knows, in the order they were first defined, with the file access each was defined
    /// with. A part of ``Registry/State``, under the registry's one lock; which are applied is the state's
    /// `appliedProfiles`, whose changes count as a change of the profiles' status.
    struct ProfileBook {
        private var profiles: [String: Profile] = [:]
        /// The names, in the order they were first defined.
        private(set) var order: [String] = []
        /// The file access each profile was defined with, when it is not ``FileAccess/unrestricted``.
        private var fileAccess: [String: FileAccess] = [:]

        /// The profile named `name`, if defined.
        subscript(name: String) -> Profile? { profiles[name] }

        /// Defines `profile`, replacing one of its name where it stands in the order.
        mutating func define(_ profile: Profile, fileAccess access: FileAccess) {
            if profiles[profile.name] == nil { order.append(profile.name) }
            profiles[profile.name] = profile
            fileAccess[profile.name] = access == .unrestricted ? nil : access
        }

        /// The file access `name` was defined with.
        func fileAccess(of name: String) -> FileAccess { fileAccess[name] ?? .unrestricted }
    }
}
