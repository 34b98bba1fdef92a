import MischiefFiles

/// The YAML shape of a theme file, as decoded before it becomes a ``Theme``.
///
/// ```yaml
/// name: default
/// description: The console's standard look
/// muted: "#8a8a8a"
/// title: { fg: "#ffd75f", bold: true }
/// ```
struct ThemeDocument: Decodable {
    var name: Located<String>?
    var description: String?
    /// The roles the file gives, with a value.
    var roles: [StyleRole: ThemeRoleDocument] = [:]
    /// Roles written with no value (`muted:` or `muted: #8a8a8a`, where `#` starts a comment), and where.
    var emptyRoles: [(role: StyleRole, location: FileLocation?)] = []
    /// Where the document starts.
    var location: FileLocation?

    /// The file's keys: `name`, `description`, and one per role.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ stringValue: String) { self.stringValue = stringValue }
        init(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        location = YAMLFile.location(of: decoder)
        let container = try decoder.container(keyedBy: Key.self)
        name = try container.decodeIfPresent(Located<String>.self, forKey: Key("name"))
        description = try container.decodeIfPresent(String.self, forKey: Key("description"))
        for role in StyleRole.allCases {
            let key = Key(role.rawValue)
            guard container.contains(key) else { continue }
            if try container.decodeNil(forKey: key) {
                emptyRoles.append((role, YAMLFile.location(of: try container.superDecoder(forKey: key))))
            } else {
                roles[role] = try container.decode(ThemeRoleDocument.self, forKey: key)
            }
        }
    }

    /// The theme this document describes, with warnings for what it leaves out; `file` names the file.
    ///
    /// Roles the file leaves out look as in ``Theme/default``. A role without `bg` is drawn on the `background`
    /// role's background (the terminal's own when that has none either).
    func theme(file: String, fileName: String) -> (theme: Theme, warnings: [FileDiagnostic]) {
        var warnings: [FileDiagnostic] = []
        let here = location ?? FileLocation(file: file, line: 1, column: 1)
        var themeName = name?.value ?? ""
        if name == nil {
            warnings.append(.warning(at: here, "missing key 'name'; using the file's name '\(fileName)'"))
            themeName = fileName
        } else if themeName.allSatisfy(\.isWhitespace) {
            let message = "the name is empty; using the file's name '\(fileName)'"
            warnings.append(.warning(at: name?.location ?? here, message))
            themeName = fileName
        }
        for (role, location) in emptyRoles {
            warnings.append(
                .warning(
                    at: location ?? here,
                    "'\(role.rawValue)' has no value, so it looks as in the default theme; a '#' starts a comment"
                        + " in YAML, so write colours in quotes: \(role.rawValue): \"#8a8a8a\""))
        }
        let standard = Theme.default.palette
        let base = roles[.background]?.background ?? standard[.background].background
        var entries: [StyleRole: Palette.Entry] = [:]
        for role in StyleRole.allCases {
            if let given = roles[role] {
                entries[role] = given.entry(background: base)
            } else {
                var entry = standard[role]
                if entry.background == .default { entry.background = base }
                entries[role] = entry
            }
        }
        let palette = Palette(entries: entries, fallback: entries[.text]!)
        return (Theme(name: themeName, description: description, palette: palette), warnings)
    }
}
