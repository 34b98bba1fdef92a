/// What `POST /v1/profiles/{name}/{verb}` does to a defined profile.
public enum ProfileVerb: String, Sendable, CaseIterable {
    /// Applies the profile (again on top, when it is on).
    case apply
    /// Reverts the profile's entries.
    case revert
    /// Applies the profile when it is off, reverts it when it is on.
    case toggle
}
