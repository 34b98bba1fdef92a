import Foundation
import MischiefFiles

extension Theme {
    /// Decodes a theme from YAML text; `file` is the path used in locations.
    ///
    /// Roles the text leaves out look as in ``Theme/default``. Unknown keys, a missing name and roles written
    /// without a value come back as warnings.
    ///
    /// - Throws: ``FileErrors`` naming `file:line:column` when the text is not a theme (bad YAML, a value
    ///   that is not a colour, `bold: maybe`).
    public static func load(text: String, file: String) throws(FileErrors) -> Decoded<Theme> {
        let decoded = try YAMLFile.decode(ThemeDocument.self, from: text, file: file)
        return theme(from: decoded, file: file)
    }

    /// Reads and decodes a theme file; see ``load(text:file:)``.
    ///
    /// - Throws: ``FileErrors`` when the file cannot be read or is not a theme.
    public static func load(contentsOf url: URL) throws(FileErrors) -> Decoded<Theme> {
        let decoded = try YAMLFile.decode(ThemeDocument.self, contentsOf: url)
        return theme(from: decoded, file: url.path)
    }

    /// The theme name a file gets when it gives none: its name without the extension.
    static func fileName(of file: String) -> String {
        URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    }

    /// The theme of a decoded document, with every warning in file order.
    private static func theme(from decoded: Decoded<ThemeDocument>, file: String) -> Decoded<Theme> {
        let (theme, warnings) = decoded.value.theme(file: file, fileName: fileName(of: file))
        let all = (decoded.warnings + warnings).sorted { $0.location < $1.location }
        return Decoded(value: theme, warnings: all)
    }
}
