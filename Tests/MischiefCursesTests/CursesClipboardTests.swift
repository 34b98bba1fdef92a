import MischiefConsole
import Testing

@testable import MischiefCurses

/// What the terminal is sent to put text on the clipboard: OSC 52 with the text in base64.
@Suite struct CursesClipboardTests {
    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")])
    func base64MatchesRFC4648(_ text: String, _ encoded: String) {
        #expect(String(decoding: CursesScreen.base64(Array(text.utf8)), as: UTF8.self) == encoded)
    }

    @Test func theSequenceIsOSC52WithBase64EndedByBEL() {
        let sequence = String(decoding: CursesScreen.clipboardSequence("clock.now=shift(1d)"), as: UTF8.self)
        #expect(sequence == "\u{1B}]52;c;Y2xvY2subm93PXNoaWZ0KDFkKQ==\u{07}")
    }
}
