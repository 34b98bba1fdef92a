import Foundation

/// Where Mischief looks for profile and theme files.
public struct SearchPath: Sendable {
    /// Profiles: `--profiles DIR` (explicit, may repeat) → `$MISCHIEF_PROFILES` (colon-separated) →
    /// `$XDG_CONFIG_HOME/mischief/profiles` (default `$HOME/.config/mischief/profiles`) → `./profiles`.
    ///
    /// Relative paths are taken from `currentDirectory`; a directory listed twice appears once.
    public static func profiles(explicit: [String], environment: [String: String], currentDirectory: String) -> [URL] {
        let fromEnvironment = (environment["MISCHIEF_PROFILES"] ?? "")
            .split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        var paths = explicit + fromEnvironment
        if let config = configDirectory(environment: environment) { paths.append(config + "/mischief/profiles") }
        paths.append("profiles")
        return urls(paths, currentDirectory: currentDirectory)
    }

    /// Themes: explicit dir (may repeat) → `$XDG_CONFIG_HOME/mischief/themes`
    /// (default `$HOME/.config/mischief/themes`) → `./themes`.
    public static func themes(explicit: [String], environment: [String: String], currentDirectory: String) -> [URL] {
        var paths = explicit
        if let config = configDirectory(environment: environment) { paths.append(config + "/mischief/themes") }
        paths.append("themes")
        return urls(paths, currentDirectory: currentDirectory)
    }

    /// Every `*.yaml` / `*.yml` file in the existing directories, sorted by name within each directory,
    /// directories in order; missing directories are skipped silently, unreadable ones reported.
    ///
    /// Hidden files (starting with `.`) are skipped; a file reached twice is listed once.
    public static func files(in directories: [URL]) -> (files: [URL], problems: [FileDiagnostic]) {
        var files: [URL] = []
        var seen: Set<String> = []
        var problems: [FileDiagnostic] = []
        let manager = FileManager.default
        for directory in directories {
            let path = directory.path
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue else {
                problems.append(.error(at: .wholeFile(path), "cannot list the directory: it is a file"))
                continue
            }
            let names: [String]
            do {
                names = try manager.contentsOfDirectory(atPath: path)
            } catch {
                problems.append(
                    .error(
                        at: .wholeFile(path),
                        "cannot list the directory: \(YAMLFile.reason(for: error))"))
                continue
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let lowered = name.lowercased()
                guard lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") else { continue }
                let file = directory.appendingPathComponent(name)
                var fileIsDirectory: ObjCBool = false
                guard manager.fileExists(atPath: file.path, isDirectory: &fileIsDirectory),
                    !fileIsDirectory.boolValue,
                    seen.insert(file.standardizedFileURL.path).inserted
                else { continue }
                files.append(file)
            }
        }
        return (files, problems)
    }

    /// `$XDG_CONFIG_HOME` when set to an absolute path, else `$HOME/.config`, else nil.
    private static func configDirectory(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config" }
        return nil
    }

    /// Absolute directory URLs for `paths`, relative ones taken from `currentDirectory`, without repeats.
    private static func urls(_ paths: [String], currentDirectory: String) -> [URL] {
        var seen: Set<String> = []
        var result: [URL] = []
        for path in paths where !path.isEmpty {
            let expanded = path.hasPrefix("/") ? path : currentDirectory + "/" + path
            let url = URL(fileURLWithPath: expanded, isDirectory: true).standardizedFileURL
            if seen.insert(url.path).inserted { result.append(url) }
        }
        return result
    }
}
