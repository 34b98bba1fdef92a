import MischiefConsole
import MischiefFiles

/// Bytes as a theme file: never a crash; every problem is located at a line and column inside the text.
let yamlThemeHarness = FuzzHarness(name: "yaml-theme", summary: "bytes as a theme YAML file; errors located") {
    bytes in
    let text = String(decoding: bytes, as: UTF8.self)
    do throws(FileErrors) {
        let decoded = try Theme.load(text: text, file: "fuzz.yaml")
        checkLocations(decoded.warnings, in: text)
    } catch {
        fuzzCheck(!error.diagnostics.isEmpty, "an error without a diagnostic")
        checkLocations(error.diagnostics, in: text)
    }
}
