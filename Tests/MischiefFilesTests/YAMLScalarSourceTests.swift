import Mischief
import MischiefFiles
import Testing

/// Spec errors point where the spec's text was written, whatever the YAML style of its scalar.
@Suite struct YAMLScalarSourceTests {
    /// The location of the first problem `check` finds with a profile whose entries are `entries` (indented by two).
    private func firstProblem(_ entries: String) throws -> String {
        let (registry, _, _) = try ProfileFileRegistryTests.registry()
        let text = "name: Styles\nentries:\n" + entries
        let profiles = try ProfileFile.load(text: text, file: "p.yaml")
        let diagnostics = ProfileFile.check(profiles, against: registry)
        guard let first = diagnostics.first else { return "no problem" }
        return "\(first.location.line):\(first.location.column) \(first.message)"
    }

    /// Only the `line:column` of the first problem.
    private func place(_ entries: String) throws -> String {
        String(try firstProblem(entries).prefix { $0 != " " })
    }

    private let unknown = "unknown action 'retrun' for app.count; did you mean 'return'?"

    @Test func plainOnOneLineAndFoldedOverTwo() throws {
        #expect(try firstProblem("  app.count: return(1) -> retrun(2)\n") == "3:27 \(unknown)")
        #expect(try firstProblem("  app.count: return(1)\n    -> retrun(2)\n") == "4:8 \(unknown)")
    }

    @Test func foldedBlockWithoutFinalBreak() throws {
        // Reported at 3:27, past the end of line 3, before the spec's columns were followed through the source.
        #expect(try firstProblem("  app.count: >-\n    return(1) ->\n    retrun(2)\n") == "5:5 \(unknown)")
        #expect(try firstProblem("  app.count: >\n\n    return(1) ->\n    retrun(2)\n") == "6:5 \(unknown)")
    }

    @Test func literalBlockKeepsMoreIndentedLines() throws {
        #expect(try firstProblem("  app.count: |\n    return(1) ->\n      retrun(2)\n") == "5:7 \(unknown)")
    }

    @Test func doubleQuotedWithEscapes() throws {
        // `\"\u00e9\"` is 10 scalars of source for 3 of spec; reported at 3:29 before.
        let line = #"  app.name: "return(\"\u00e9\") -> retrun(1)""# + "\n"
        #expect(try firstProblem(line) == "3:36 unknown action 'retrun' for app.name; did you mean 'return'?")
        let folded = "  app.count: \"return(1) \\\n    -> retrun(2)\"\n"
        #expect(try firstProblem(folded) == "4:8 \(unknown)")
        let wide = #"  app.count: "\x72\U00000065turn(1) -> retrun(2)""# + "\n"
        #expect(try firstProblem(wide) == "3:40 \(unknown)")
    }

    @Test func singleQuotedWithDoubledQuotes() throws {
        let line = #"  app.name: 'return("it''s") -> retrun(1)'"# + "\n"
        #expect(try firstProblem(line) == "3:33 unknown action 'retrun' for app.name; did you mean 'return'?")
    }

    @Test func anErrorAtTheEndIsJustPastTheLastScalar() throws {
        #expect(try place("  app.count: \"shift(1d\"\n") == "3:23")
        #expect(try place("  app.count: >-\n    seq(1,\n    2\n") == "5:6")
    }

    @Test func theEndOfABlockThatEndsInABreakIsOnTheNextLine() throws {
        // Found by the yaml-profile fuzzer: one past "city('Tokyo')\n" was put at 8:19, past the end of line 8.
        let text = "name: A\nentries:\n  location.current: |\n    city('Tokyo')\n"
        let entry = try ProfileFile.load(text: text, file: "p.yaml")[0].entries[0]
        #expect(entry.spec == "city('Tokyo')\n")
        #expect(entry.specLocation(column: 15) == FileLocation(file: "p.yaml", line: 5, column: 1))
        #expect(entry.specLocation(column: 14) == FileLocation(file: "p.yaml", line: 4, column: 18))
    }

    @Test func columnsCountScalarsThroughCombiningMarks() throws {
        // "é" written as e + U+0301 is two columns in the file and two in the spec.
        let line = "  app.name: return(\"e\u{301}\") -> retrun(1)\n"
        #expect(try place(line) == "3:29")
    }

    @Test func aSpecThatIsNotFromTheSourceFallsBackToItsStart() {
        let entry = ProfileFile.Entry(
            seam: "app.count", spec: "x",
            specLocation: FileLocation(
                file: "f", line: 2,
                column: 3))
        #expect(entry.specLocation(column: 1) == FileLocation(file: "f", line: 2, column: 3))
    }
}
