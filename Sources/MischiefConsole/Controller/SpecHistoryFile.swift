import Foundation
import Mischief

/// Where a console keeps the specs applied before (``SpecHistory``), across runs: `spec-history.json` in the
/// directory of its state, `$XDG_STATE_HOME/mischief` (`~/.local/state/mischief` without it), next to the
/// recordings.
public enum SpecHistoryFile {
    /// The file, for `environment`.
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        RecordingFiles.stateDirectory(environment: environment).appendingPathComponent("spec-history.json")
    }

    /// The history in `url`: empty when there is no file; empty with a note saying why when it cannot be read
    /// (the file is left as it is until the next save replaces it).
    public static func load(from url: URL) -> (history: SpecHistory, problem: String?) {
        guard FileManager.default.fileExists(atPath: url.path) else { return (SpecHistory(), nil) }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // A history within its bounds is well under this; more is not a history this console wrote.
            let data = try handle.read(upToCount: 16 << 20) ?? Data()
            return (try JSONDecoder().decode(SpecHistory.self, from: data).bounded, nil)
        } catch {
            return (
                SpecHistory(),
                "the spec history cannot be read, so it starts empty (the next spec applied replaces "
                    + "\(Format.homeRelative(url.path)))"
            )
        }
    }

    /// Writes `history` to `url` (readable only by its owner), replacing the file at once.
    ///
    /// - Throws: The file system's error.
    public static func save(_ history: SpecHistory, to url: URL) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(history).write(to: url, options: [.atomic])
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}
