import Foundation
import Mischief

extension ProfileFile {
    /// The caller's verdict on one entry: what is wrong, and whether it is the seam id or the spec.
    public struct EntryProblem: Hashable, Sendable {
        /// Which part of an entry a problem is about.
        public enum Place: Hashable, Sendable {
            /// The seam id (for example, no such seam).
            case seam
            /// The spec text; `column` is the 1-based column inside the spec text, if known.
            case spec(column: Int?)
        }

        /// What is wrong, and what was expected.
        public var message: String
        /// Which part of the entry the problem is about.
        public var place: Place

        /// Creates a problem.
        public init(message: String, place: Place) {
            self.message = message
            self.place = place
        }

        /// A problem with the seam id, reported at the seam key.
        public static func seam(_ message: String) -> EntryProblem {
            EntryProblem(message: message, place: .seam)
        }

        /// A problem with the spec, reported inside the spec text at `column` (1-based) when given.
        public static func spec(_ message: String, column: Int? = nil) -> EntryProblem {
            EntryProblem(message: message, place: .spec(column: column))
        }
    }

    /// Every problem in a set of profiles at once, in profile order: the caller's verdict per entry, hot keys
    /// outside 1–9, hot keys and names used by more than one profile, seams listed twice in a profile, and guards
    /// that do not parse (at their column).
    ///
    /// - Parameters:
    ///   - profiles: The profiles to check, as read from their files (with locations).
    ///   - entry: Returns what is wrong with an entry (an unknown seam, a bad spec), or nil.
    public static func check(
        _ profiles: [ProfileFile], entry: (ProfileFile.Entry) -> EntryProblem?
    ) -> [FileDiagnostic] {
        var diagnostics: [FileDiagnostic] = []
        var keyOwners: [Int: ProfileFile] = [:]
        var nameOwners: [String: ProfileFile] = [:]
        for profile in profiles {
            let here = profile.location ?? .wholeFile("profile '\(profile.name)'")
            if profile.name.trimmingCharacters(in: .whitespaces).isEmpty {
                diagnostics.append(.error(at: profile.nameLocation ?? here, "the profile name is empty"))
            }
            if let owner = nameOwners[profile.name] {
                let first = owner.nameLocation ?? owner.location ?? .wholeFile("profile '\(owner.name)'")
                diagnostics.append(
                    .error(
                        at: profile.nameLocation ?? here,
                        "profile name '\(profile.name)' is already used (\(first));"
                            + " each profile needs its own name"))
            } else {
                nameOwners[profile.name] = profile
            }
            if let key = profile.key {
                let keyHere = profile.keyLocation ?? here
                if !(1...9).contains(key) {
                    diagnostics.append(.error(at: keyHere, "hot key \(key) is out of range; expected 1 to 9"))
                } else if let owner = keyOwners[key] {
                    let first = owner.keyLocation ?? owner.location ?? .wholeFile("profile '\(owner.name)'")
                    diagnostics.append(
                        .error(
                            at: keyHere,
                            "hot key \(key) is used by both '\(owner.name)' (\(first))"
                                + " and '\(profile.name)' (\(keyHere))"))
                } else {
                    keyOwners[key] = profile
                }
            }
            for (index, line) in profile.guards.enumerated() {
                do throws(SpecError) {
                    _ = try Guard.Condition(parsing: line.value)
                } catch {
                    let location = profile.guardLocation(index, column: error.column) ?? line.location ?? here
                    diagnostics.append(.error(at: location, "guard: \(error.message)"))
                }
            }
            var seams: [String: ProfileFile.Entry] = [:]
            for item in profile.entries {
                if let earlier = seams[item.seam] {
                    let first = earlier.seamLocation.map { " (first at \($0))" } ?? ""
                    diagnostics.append(
                        .error(
                            at: item.seamLocation ?? here,
                            "seam '\(item.seam)' is listed twice in '\(profile.name)'\(first)"))
                } else {
                    seams[item.seam] = item
                }
                guard let problem = entry(item) else { continue }
                switch problem.place {
                case .seam:
                    diagnostics.append(.error(at: item.seamLocation ?? here, problem.message))
                case let .spec(column):
                    let location =
                        column.flatMap(item.specLocation(column:)) ?? item.specLocation
                        ?? item.seamLocation ?? here
                    diagnostics.append(.error(at: location, problem.message))
                }
            }
        }
        return diagnostics
    }
}
