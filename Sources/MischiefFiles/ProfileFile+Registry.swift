import Foundation
import Mischief

extension ProfileFile {
    /// A file's profile as a registry takes it.
    ///
    /// - Throws: `MischiefError.invalidSeamID` for a malformed seam id (``check(_:against:fileAccess:)``
    ///   reports it with its location first).
    public func profile() throws(MischiefError) -> Profile {
        var entries: [SeamSpec] = []
        for entry in self.entries {
            entries.append(SeamSpec(seam: try SeamID(entry.seam), spec: entry.spec, ttl: entry.ttl))
        }
        return Profile(
            name: name, description: description, key: key, seed: seed, entries: entries, ttl: ttl,
            guards: guardTexts)
    }

    /// A profile to save.
    public init(_ profile: Profile) {
        self.init(
            name: profile.name, description: profile.description, key: profile.key, seed: profile.seed,
            entries: profile.entries.map { Entry(seam: $0.seam.rawValue, spec: $0.spec, ttl: $0.ttl) }, ttl: profile.ttl
        )
        guards = profile.guards.map { Located($0) }
    }

    /// Every problem with `profiles` against the seams registered in `registry`, at once and located: malformed
    /// or unknown seam ids at the seam key, bad specs at the column inside the spec, hot keys and names.
    ///
    /// - Parameters:
    ///   - profiles: The profiles to check, as read from their files (with locations).
    ///   - registry: The registry whose seams and profiles they must fit.
    ///   - fileAccess: Which files the specs may read; confine profiles that come from outside the process.
    public static func check(
        _ profiles: [ProfileFile], against registry: Registry, fileAccess: FileAccess = .unrestricted
    ) -> [FileDiagnostic] {
        let entries = profiles.flatMap { entryProblems(in: $0, against: registry, fileAccess: fileAccess) }
        let guards = profiles.flatMap { guardProblems(in: $0, against: registry) }
        return (entries + guards + check(profiles) { _ in nil }).sorted { $0.location < $1.location }
    }

    /// The problems of one profile's guards that the registry finds (unknown seams, a check seam of the wrong
    /// type), at the guard; ``check(_:entry:)`` reports those in their text.
    private static func guardProblems(in profile: ProfileFile, against registry: Registry) -> [FileDiagnostic] {
        var diagnostics: [FileDiagnostic] = []
        for (index, line) in profile.guards.enumerated() {
            guard (try? Guard.Condition(parsing: line.value)) != nil else { continue }
            let bare = Profile(name: profile.name, entries: [], guards: [line.value])
            for problem in registry.problems(in: bare) where problem.specError == nil {
                let here = profile.guardLocation(index, column: 1) ?? profile.location ?? .wholeFile("profile")
                let message = problem.message.replacingOccurrences(of: "guard 1: ", with: "guard: ")
                diagnostics.append(.error(at: here, message))
            }
        }
        return diagnostics
    }

    /// The problems of one profile's entries.
    private static func entryProblems(
        in profile: ProfileFile, against registry: Registry, fileAccess: FileAccess = .unrestricted
    ) -> [FileDiagnostic] {
        var bare = profile
        bare.key = nil
        bare.guards = []  // reported once, by the check of the whole profile
        return check([bare]) { entry in
            let seam: SeamID
            do throws(MischiefError) { seam = try SeamID(entry.seam) } catch { return .seam(error.description) }
            do throws(MischiefError) {
                _ = try registry.change(spec: entry.spec, for: seam, seed: profile.seed, fileAccess: fileAccess)
                return nil
            } catch {
                switch error {
                case .unknownSeam:
                    return .seam(unknownSeamMessage(seam, among: registry.seams.map(\.id)))
                case .invalidSpec(_, let specError):
                    return .spec(specError.message, column: specError.column)
                default:
                    return .spec(error.description)
                }
            }
        }
    }

    /// Loads every profile file in `directories` (in order), checks each profile against `registry`, and defines
    /// those whose entries are all good. A broken file or profile is reported and skipped, never half-defined; a
    /// profile whose name an earlier one already took is skipped; clashing hot keys are reported. A hot key that a
    /// profile already in `registry` (a preset) or in `keysTaken` has is reported as a warning, and the file's
    /// profile is defined without it, so it can be given a free key instead of hiding behind the preset.
    ///
    /// - Parameters:
    ///   - directories: The directories to read `.yaml` files from, in order.
    ///   - registry: The registry to check the profiles against and define them in.
    ///   - keysTaken: Hot keys taken elsewhere, with their profiles' names.
    /// - Returns: The names defined, in order, and every problem found.
    public static func loadAll(
        from directories: [URL], into registry: Registry, keysTaken: [Int: String] = [:]
    ) -> (defined: [String], diagnostics: [FileDiagnostic]) {
        var taken = keysTaken
        for status in registry.profiles {
            if let key = status.profile.key { taken[key] = status.profile.name }
        }
        let (files, diagnostics) = load(from: directories, keysTaken: taken) {
            entryProblems(in: $0, against: registry)
        }
        var defined: [String] = []
        var refused: [FileDiagnostic] = []
        for file in files {
            guard let profile = try? file.profile() else { continue }
            do throws(MischiefError) {
                try registry.define(profile)
            } catch {
                // Checked above, so only what depends on the registry's state now: too many guards.
                if let location = file.nameLocation ?? file.location {
                    refused.append(.error(at: location, "profile '\(file.name)' was not defined: \(error)"))
                }
                continue
            }
            defined.append(profile.name)
        }
        return (defined, diagnostics + refused)
    }

    /// Loads every profile file in `directories` (in order) and checks each profile against `seams`, the seams of
    /// another process (an attached console's target, as `GET /v1/changes?since=0` lists them with their actions):
    /// each entry's seam must be among them and its spec must parse and fit the seam's actions. Returns the profiles
    /// whose entries are all good, for the caller to send, and every problem found, located in its file; hot keys
    /// are handled as ``loadAll(from:into:keysTaken:)`` does.
    ///
    /// - Parameters:
    ///   - directories: The directories to read `.yaml` files from, in order.
    ///   - seams: The other process's seams, with their actions, that the entries must fit.
    ///   - keysTaken: Hot keys taken by the other process's profiles, with their names.
    public static func loadAll(
        from directories: [URL], checkedAgainst seams: [SeamSnapshot], keysTaken: [Int: String] = [:]
    ) -> (profiles: [ProfileFile], diagnostics: [FileDiagnostic]) {
        let byID = Dictionary(seams.map { ($0.id, $0) }) { first, _ in first }
        return load(from: directories, keysTaken: keysTaken) { file in
            var bare = file
            bare.key = nil
            bare.guards = []  // the target checks guards when it is sent the profile
            return check([bare]) { entry in entryProblem(entry, among: byID) }
        }
    }

    /// What is wrong with `entry` against seams known only by their snapshots (ids and action signatures).
    static func entryProblem(_ entry: Entry, among seams: [SeamID: SeamSnapshot]) -> EntryProblem? {
        let id: SeamID
        do throws(MischiefError) { id = try SeamID(entry.seam) } catch { return .seam(error.description) }
        guard let seam = seams[id] else {
            return .seam(unknownSeamMessage(id, among: seams.values.map(\.id).sorted { $0.rawValue < $1.rawValue }))
        }
        do throws(SpecError) {
            _ = try Spec(parsing: entry.spec).bind(to: seam.actions, seam: id.rawValue)
            return nil
        } catch {
            return .spec(error.message, column: error.column)
        }
    }

    /// Loads the files, checks what they hold together (names, keys, guards' syntax) and each profile with
    /// `problems`; returns the profiles without errors (the first of each name, a taken hot key dropped with a
    /// warning) and every diagnostic, in file order.
    private static func load(
        from directories: [URL], keysTaken taken: [Int: String], problems: (ProfileFile) -> [FileDiagnostic]
    ) -> (profiles: [ProfileFile], diagnostics: [FileDiagnostic]) {
        let (files, found) = SearchPath.files(in: directories)
        var diagnostics = found
        var loaded: [ProfileFile] = []
        for file in files {
            do throws(FileErrors) {
                let decoded = try ProfileFile.loadDecoded(contentsOf: file)
                diagnostics += decoded.warnings
                loaded += decoded.value
            } catch {
                diagnostics += error.diagnostics
            }
        }
        diagnostics += check(loaded) { _ in nil }
        var good: [ProfileFile] = []
        for var file in loaded where !good.contains(where: { $0.name == file.name }) {
            if let key = file.key, let owner = taken[key], owner != file.name {
                let location = file.keyLocation ?? file.location ?? .wholeFile("profile '\(file.name)'")
                let message = "hot key \(key) is taken by '\(owner)'; '\(file.name)' gets a free key instead"
                diagnostics.append(.warning(at: location, message))
                file.key = nil
            }
            let own = problems(file)
            diagnostics += own
            guard !own.contains(where: { $0.severity == .error }) else { continue }
            good.append(file)
        }
        return (good, diagnostics.sorted { $0.location < $1.location })
    }
}
