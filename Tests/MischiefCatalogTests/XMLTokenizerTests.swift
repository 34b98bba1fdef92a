import Foundation
import Testing

@testable import MischiefCatalog

/// The strict XML subset GPX files are read with: what it accepts, what it refuses and where it says so.
@Suite struct XMLTokenizerTests {
    private func tokens(_ text: String) throws(XMLSyntaxError) -> [XMLTokenizer.Token] {
        var tokenizer = try XMLTokenizer(Array(text.utf8))
        var tokens: [XMLTokenizer.Token] = []
        while let token = try tokenizer.next() { tokens.append(token) }
        return tokens
    }

    private func failure(_ bytes: [UInt8]) -> XMLSyntaxError? {
        do throws(XMLSyntaxError) {
            var tokenizer = try XMLTokenizer(bytes)
            while try tokenizer.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    private func failure(_ text: String) -> XMLSyntaxError? { failure(Array(text.utf8)) }

    @Test func readsElementsAttributesTextAndSkipsTheRest() throws {
        let document = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <g:a x="1 &amp; 2" y='it&apos;s' z="tab\there">
              <b>&lt;&#65;&#x42;&gt; <![CDATA[<raw> &amp;]]></b><?pi skipped?><c/>
            </g:a>
            """
        let tokens = try tokens(document)
        let attributes = [
            XMLTokenizer.Attribute(name: "x", value: "1 & 2"), .init(name: "y", value: "it's"),
            .init(name: "z", value: "tab here"),
        ]
        #expect(
            tokens == [
                .start(name: "g:a", attributes: attributes, line: 3), .text("\n  "),
                .start(name: "b", attributes: [], line: 4), .text("<AB> "), .text("<raw> &amp;"),
                .end(name: "b", line: 4), .start(name: "c", attributes: [], line: 4), .end(name: "c", line: 4),
                .text("\n"), .end(name: "g:a", line: 5),
            ])
    }

    @Test(arguments: [
        ("<a>", 1, 4, "the document ends before its elements are closed (<a> is open)"),
        ("<a></b>", 1, 4, "a closing tag does not match the open element"),
        ("<a x=1/>", 1, 6, "the value of attribute 'x' is not in quotes"),
        ("<a x/>", 1, 5, "attribute 'x' has no value (write x=\"…\")"),
        ("<a x='1'y='2'/>", 1, 9, "expected a space before the attribute"),
        ("<a x='<'/>", 1, 7, "'<' inside the value of attribute 'x'"),
        ("<a>&#0;</a>", 1, 4, "a bad entity reference (escape '&' as '&amp;')"),
        ("<a>&#xD800;</a>", 1, 4, "a bad entity reference (escape '&' as '&amp;')"),
        ("<a>&#+65;</a>", 1, 4, "a bad entity reference (escape '&' as '&amp;')"),
        ("<a>AT&T</a>", 1, 6, "a bad entity reference (escape '&' as '&amp;')"),
        ("text<a/>", 1, 1, "the document does not start with an element"),
        ("<a/>\n\ntail", 3, 1, "content after the root element"),
        ("<!-- open", 1, 1, "a comment is not closed"),
        ("<a><![CDATA[x</a>", 1, 4, "a CDATA section is not closed"),
        ("<![CDATA[x]]><a/>", 1, 1, "a CDATA section outside the root element"),
        ("<? x?><a/>", 1, 1, "expected a name after '<?'"),
        ("<!ELEMENT a><a/>", 1, 1, "expected a comment or CDATA section after '<!'"),
        ("<a\r\n\r\n b='1' b='2'/>", 3, 8, "attribute 'b' appears twice on one element"),
        ("<a>\u{1}</a>", 1, 4, "a control character (byte 0x01) is not allowed in XML"),
        ("<a>\u{FFFF}</a>", 1, 4, "character U+FFFF is not allowed in XML"),
        ("<!-- only a comment -->", 1, 24, "the document has no root element"),
        ("<1a/>", 1, 2, "expected an element name after '<'"),
    ])
    func refusesWithLineAndColumn(text: String, line: Int, column: Int, message: String) {
        #expect(failure(text) == XMLSyntaxError(line: line, column: column, message: message))
    }

    @Test func refusesMalformedUTF8() {
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            let error = failure(Array("<a>".utf8) + bytes + Array("</a>".utf8))
            #expect(error?.column == 4)
            #expect(error?.message.hasPrefix("invalid UTF-8") == true)
        }
    }

    @Test func nestingIsLimited() {
        let deep = String(repeating: "<a>", count: XMLTokenizer.maxDepth) + String(repeating: "</a>", count: 256)
        #expect(failure(deep) == nil)
        let deeper = "<b>" + deep + "</b>"
        #expect(failure(deeper)?.message == "elements nest deeper than 256 levels")
    }

    /// Worst cases for a quadratic scanner: one long attribute list, an unclosed comment, many references. Linear
    /// scanning takes well under a second each; a quadratic one would not end within the time limit (the 2 MB
    /// comment alone would take hours). The limit is generous: under ThreadSanitizer on a loaded 2-core machine the
    /// linear scan took over a minute (CI, 2026-11-26). Speed itself is for benchmarks, not for assertions here.
    @Test(.timeLimit(.minutes(5))) func pathologicalInputsEndWithTheirResult() {
        let attributes = (0..<20_000).map { " a\($0)='1'" }.joined()
        let inputs = [
            "<a" + attributes + "/>",
            "<a><!--" + String(repeating: "-", count: 2_000_000),
            "<a>" + String(repeating: "&amp;", count: 400_000) + "</a>",
            "<a>" + String(repeating: "<b x='&#x41;'/>", count: 200_000) + "</a>",
        ]
        let results = inputs.map { failure($0)?.message }
        #expect(results[0] == nil)
        #expect(results[1] != nil)
        #expect(results[2] == nil)
        #expect(results[3] == nil)
    }
}
