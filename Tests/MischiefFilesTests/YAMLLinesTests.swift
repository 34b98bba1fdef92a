import MischiefFiles
import Testing

/// Reader errors (a control character in the text) are located as YAML counts lines: found by the yaml-theme fuzzer,
/// which saw 15:17 on a line of one scalar.
@Suite struct YAMLLinesTests {
    private struct Named: Decodable {
        var name: String
    }

    private func location(of text: String) -> String {
        do throws(FileErrors) {
            _ = try YAMLFile.decode(Named.self, from: text, file: "f.yaml")
            return "no error"
        } catch {
            let first = error.diagnostics[0]
            return "\(first.location.line):\(first.location.column)"
        }
    }

    @Test func aLoneCarriageReturnEndsALine() {
        // Lines end at "\r" too: the NUL is on line 3, column 7.
        #expect(location(of: "a: 1\r\rname: \u{0}x\n") == "3:7")
        #expect(location(of: "a: 1\r\nname: \u{0}x\n") == "2:7")
        #expect(location(of: "a: 1\u{2028}name: \u{0}x\n") == "2:7")
    }

    @Test func columnsCountScalars() {
        // "é" written as e + U+0301 is one character but two columns: the control is the 10th scalar of the line.
        #expect(location(of: "name: \"é\u{301}\u{1}\"\n") == "1:10")
    }

    @Test func theEndOfATextWithoutAFinalBreakIsOnItsLastLine() {
        // Found by both YAML fuzzers: libyaml puts the end of the stream on a line past the last (10:1 of 9 lines).
        #expect(location(of: "name: x\nFlo") == "2:4")
        #expect(location(of: "name: [x,") == "1:10")
        #expect(location(of: "name: x\nother: \"") == "2:9")
    }

    @Test func aValueMissingAtTheEndIsOnTheLastLine() {
        #expect(location(of: "other: 1\nname:") == "2:6")
    }
}
