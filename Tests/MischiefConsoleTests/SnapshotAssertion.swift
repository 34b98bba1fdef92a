import Foundation
import MischiefConsole
import Testing

/// Compares a rendered grid with the text snapshot `Snapshots/<name>.txt` (the text grid, then the roles grid).
///
/// `MISCHIEF_RECORD_SNAPSHOTS=1 swift test --filter ConsoleRenderTests` re-records every snapshot; a missing
/// snapshot is recorded and reported as a failure, so it is reviewed before it is trusted.
func assertSnapshot(_ grid: CellGrid, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots").appendingPathComponent(name + ".txt")
    let rendered = grid.text + "\n--- roles ---\n" + grid.roles + "\n"
    let record = ProcessInfo.processInfo.environment["MISCHIEF_RECORD_SNAPSHOTS"] == "1"
    guard !record, let stored = try? String(contentsOf: url, encoding: .utf8) else {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try rendered.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            Issue.record("could not write snapshot \(url.path): \(error)", sourceLocation: sourceLocation)
        }
        if !record {
            Issue.record("recorded missing snapshot \(name); check it and run again", sourceLocation: sourceLocation)
        }
        return
    }
    if stored != rendered {
        let storedLines = stored.split(separator: "\n", omittingEmptySubsequences: false)
        let renderedLines = rendered.split(separator: "\n", omittingEmptySubsequences: false)
        let first =
            (0..<min(storedLines.count, renderedLines.count)).first { storedLines[$0] != renderedLines[$0] }
            ?? min(storedLines.count, renderedLines.count)
        let expected = first < storedLines.count ? String(storedLines[first]) : "<end>"
        let actual = first < renderedLines.count ? String(renderedLines[first]) : "<end>"
        Issue.record(
            """
            snapshot \(name) differs at line \(first + 1) (MISCHIEF_RECORD_SNAPSHOTS=1 re-records):
              expected: \(expected)
              actual:   \(actual)
            rendered:
            \(rendered)
            """, sourceLocation: sourceLocation)
    }
}
