import Foundation
import Mischief

/// Where a console saves the session's recording (`W`): a new file for each save, in
/// `$XDG_STATE_HOME/mischief/recordings` (`~/.local/state/mischief/recordings` without it).
public enum RecordingFiles {
    /// How many events a console's recording keeps in memory; later ones are counted, not kept.
    public static let capacity = 10_000
    /// How many chaos-call decisions it keeps (which layer answered each call, and with what); later ones are
    /// counted, not kept.
    public static let decisions = 10_000

    /// The directory recordings are saved in, for `environment`.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        stateDirectory(environment: environment).appendingPathComponent("recordings")
    }

    /// The directory of the console's state, for `environment`: `$XDG_STATE_HOME/mischief`, or
    /// `~/.local/state/mischief` without it (recordings, the spec history).
    public static func stateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSTemporaryDirectory())
            .appendingPathComponent(".local/state")
        return state.appendingPathComponent("mischief")
    }

    /// Writes `recording` to a new file named after its target and the time, `demo-20261126-103012.jsonl` (with
    /// `-2`, `-3`… when that exists), readable only by its owner; returns its path.
    ///
    /// - Throws: ``ConsoleError/refused(_:)`` saying why it could not be written.
    public static func save(
        _ recording: Recording, in directory: URL = directory(), now: Date = Date()
    ) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let name = recording.header.target.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let stem = "\(String(name).lowercased())-\(formatter.string(from: now))"
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            var url = directory.appendingPathComponent(stem + ".jsonl")
            var suffix = 2
            while FileManager.default.fileExists(atPath: url.path) {
                url = directory.appendingPathComponent("\(stem)-\(suffix).jsonl")
                suffix += 1
            }
            let data = Data(recording.jsonLines.utf8)
            guard
                FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
            return url.path
        } catch {
            throw ConsoleError.refused("cannot save the recording in \(directory.path): \(error.localizedDescription)")
        }
    }
}
