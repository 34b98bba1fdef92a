import Foundation

/// Saves a profile to a file of its own, never replacing a file it did not write for that profile unless told to.
///
/// A file the saver writes starts with ``marker``; saving the same profile again replaces such a file without a
/// question. Any other file at that path (hand-written, several profiles, another profile whose name gives the same
/// file name, not YAML at all) is only replaced with `overwrite: true`, which a user asked for after seeing what the
/// file holds (``ProfileSaveError/wouldReplace(file:holding:)``).
///
/// ```swift
/// let url = ProfileSaver.url(forProfile: "Tokyo", in: directory)  // …/tokyo.yaml
/// try ProfileSaver.save(yaml: ProfileFile(profile).yaml(), named: "Tokyo", to: url, overwrite: false)
/// ```
public enum ProfileSaver {
    /// The first line of every file the saver writes.
    public static let marker = "# Saved by the Mischief console; saving this profile again replaces this file."

    /// Where a profile called `name` is saved: its name in lower case, other characters as `-`.
    public static func url(forProfile name: String, in directory: URL) -> URL {
        let slug = name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        return directory.appendingPathComponent("\(slug.isEmpty ? "profile" : slug).yaml")
    }

    /// Writes `yaml`, the profile called `name`, to `url` (atomically, creating the directory), after ``marker``.
    ///
    /// - Parameters:
    ///   - yaml: The profile's YAML, as ``ProfileFile`` reads it back.
    ///   - name: The profile's name, which tells a file this saver wrote for it from any other.
    ///   - url: Where to write it; ``url(forProfile:in:)`` gives the usual place.
    ///   - overwrite: Replace whatever is at `url`. Without it, only a file this saver wrote for the same
    ///     profile is replaced.
    /// - Throws: ``ProfileSaveError/wouldReplace(file:holding:)`` when another file is in the way and `overwrite`
    ///   is false; ``ProfileSaveError/cannotWrite(path:reason:)`` when the file cannot be written.
    public static func save(yaml: String, named name: String, to url: URL, overwrite: Bool) throws(ProfileSaveError) {
        if !overwrite, let holding = obstacle(at: url, savingProfile: name) {
            throw .wouldReplace(file: url.lastPathComponent, holding: holding)
        }
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((marker + "\n" + yaml).utf8).write(to: url, options: .atomic)
        } catch {
            throw .cannotWrite(path: url.path, reason: error.localizedDescription)
        }
    }

    /// What the file at `url` holds when saving profile `name` there would lose something; nil when there is no
    /// file or it is this saver's earlier save of the same profile.
    static func obstacle(at url: URL, savingProfile name: String) -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let text: String
        let profiles: [ProfileFile]
        do {
            text = try String(contentsOf: url, encoding: .utf8)
            profiles = try ProfileFile.load(text: text, file: url.path)
        } catch {
            return "not a profile file"
        }
        if text.hasPrefix(marker + "\n"), profiles.map(\.name) == [name] { return nil }
        let names = profiles.map(\.name).joined(separator: ", ")
        return "\(profiles.count) profile\(profiles.count == 1 ? "" : "s")" + (names.isEmpty ? "" : ": \(names)")
    }
}

/// Why ``ProfileSaver/save(yaml:named:to:overwrite:)`` did not save.
public enum ProfileSaveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file the saver did not write for this profile is in the way; `holding` says what it holds ("2 profiles:
    /// Tokyo, Osaka").
    case wouldReplace(file: String, holding: String)
    /// The file could not be written.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .wouldReplace(let file, let holding): "\(file) exists (\(holding))"
        case .cannotWrite(let path, let reason): "cannot save \(path): \(reason)"
        }
    }
}
