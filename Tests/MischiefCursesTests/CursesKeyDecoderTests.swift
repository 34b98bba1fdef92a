import CNcurses
import MischiefConsole
import Testing

@testable import MischiefCurses

@Suite struct CursesKeyDecoderTests {
    /// Decodes a `KEY_*` code returned with `KEY_CODE_YES`.
    private func keyCode(_ code: Int32) -> Key? {
        CursesKeyDecoder.keys([(KEY_CODE_YES, UInt32(code))]).first
    }

    /// Decodes a character returned with `OK`.
    private func character(_ code: UInt32) -> Key? {
        CursesKeyDecoder.keys([(OK, code)]).first
    }

    /// The characters of `text`, as `wget_wch` returns them when ncurses does not know a sequence.
    private func characters(_ text: String) -> [(status: Int32, code: UInt32)] {
        text.unicodeScalars.map { (OK, $0.value) }
    }

    /// The keys of a mouse report split after its ESC, the ESC given up on at `start`, with `silence` (a read that
    /// found nothing, that long after) before the rest arrives five seconds later.
    private func splitReport(silence: Duration?) -> [Key] {
        var decoder = CursesKeyDecoder()
        var keys: [Key] = []
        let start = ContinuousClock.now
        decoder.feed(status: OK, code: 0x1B) { keys.append($0) }
        decoder.flush(at: start) { keys.append($0) }
        if let silence { decoder.nothingToRead(at: start + silence, after: .seconds(1)) }
        for (status, code) in characters("[<0;11;8M") { decoder.feed(status: status, code: code) { keys.append($0) } }
        return keys
    }

    @Test func aReaderHeldUpAfterAGivenUpEscStillReadsTheRestAsASequence() {
        // Five seconds passed, but no read found nothing in them: the reader was held up, not the input.
        let keys = splitReport(silence: nil)
        #expect(keys.first == .escape)
        #expect(!keys.contains { Self.isCharacter($0) }, "the report's bytes became keys: \(keys)")
    }

    private static func isCharacter(_ key: Key) -> Bool {
        if case .character = key { return true }
        return false
    }

    @Test func aGivenUpEscExpiresOnceAReadFoundNothingForLongerThanTheWait() {
        let within = splitReport(silence: .milliseconds(500))
        #expect(!within.contains { Self.isCharacter($0) }, "\(within)")  // within the wait: still a sequence
        let typed = splitReport(silence: .seconds(2))
        #expect(typed.contains(.character("8")), "\(typed)")  // after it: `[` and the rest are keys again
    }

    @Test func navigationKeys() {
        #expect(keyCode(KEY_UP) == .up)
        #expect(keyCode(KEY_DOWN) == .down)
        #expect(keyCode(KEY_LEFT) == .left)
        #expect(keyCode(KEY_RIGHT) == .right)
        #expect(keyCode(KEY_PPAGE) == .pageUp)
        #expect(keyCode(KEY_NPAGE) == .pageDown)
        #expect(keyCode(KEY_HOME) == .home)
        #expect(keyCode(KEY_END) == .end)
        #expect(keyCode(KEY_DC) == .delete)
        #expect(keyCode(KEY_BTAB) == .backTab)
        #expect(keyCode(KEY_ENTER) == .enter)
        #expect(keyCode(KEY_BACKSPACE) == .backspace)
        #expect(keyCode(KEY_RESIZE) == .resize)
        #expect(keyCode(KEY_MOUSE) == nil)
    }

    @Test func functionKeys() {
        for n in 1...12 {
            #expect(keyCode(cn_key_f(Int32(n))) == .function(n))
        }
    }

    @Test func controlCharacters() {
        #expect(character(9) == .tab)
        #expect(character(10) == .enter)
        #expect(character(13) == .enter)
        #expect(character(27) == .escape)
        #expect(character(127) == .backspace)
        #expect(character(8) == .backspace)
        #expect(character(1) == .control("a"))
        #expect(character(3) == .control("c"))
        #expect(character(26) == .control("z"))
        #expect(character(0) == .control("@"))
        #expect(character(31) == .control("_"))
        #expect(character(0x85) == nil)
    }

    @Test func printableCharacters() {
        #expect(character(UInt32(UInt8(ascii: "q"))) == .character("q"))
        #expect(character(UInt32(UInt8(ascii: " "))) == .character(" "))
        #expect(character(0xE9) == .character("é"))
        #expect(character(0x6771) == .character("東"))
        #expect(character(0x1F30B) == .character("🌋"))
        #expect(character(0xD800) == nil)  // not a scalar
    }

    @Test func errorsDecodeToNothing() {
        #expect(CursesKeyDecoder.keys([(ERR, 0)]).isEmpty)
    }

    /// tmux sends `ESC [ 1 ~` / `ESC [ 4 ~` for Home/End; xterm's terminfo calls them Find/Select, and a terminfo
    /// without them left the bytes to be read as ESC, `[`, `1`, `~`: Home switched preset 1 on.
    @Test func homeAndEndInEveryEncoding() {
        #expect(keyCode(KEY_FIND) == .home)
        #expect(keyCode(KEY_SELECT) == .end)
        #expect(keyCode(KEY_IC) == .insert)
        for (sequence, key) in KeyInputDecoder.knownSequences {
            #expect(CursesKeyDecoder.keys(characters(sequence)) == [key], "\(Array(sequence.utf8))")
            #expect(CursesKeyDecoder.keyCode(for: key).flatMap(CursesKeyDecoder.decodeKeyCode) == key)
        }
    }

    @Test func anUnfinishedPasteEndsAfterASilenceAndKeysAreKeysAgain() {
        var decoder = CursesKeyDecoder()
        var keys: [Key] = []
        for (status, code) in characters("\u{1B}[200~abc") {
            decoder.feed(status: status, code: code) { keys.append($0) }
        }
        #expect(decoder.isInsidePaste)
        let start = ContinuousClock.now
        decoder.nothingToRead(at: start + .milliseconds(500), after: .seconds(1)) { keys.append($0) }
        #expect(keys.isEmpty, "a paste that goes on after a short pause is still one paste")
        decoder.nothingToRead(at: start + .seconds(2), after: .seconds(1)) { keys.append($0) }
        #expect(keys == [.paste("abc")])
        #expect(!decoder.isInsidePaste)
        decoder.feed(status: OK, code: UInt32(UInt8(ascii: "1"))) { keys.append($0) }
        #expect(keys.last == .character("1"))
    }

    @Test func unknownSequencesAndAltChordsAreNotKeys() {
        #expect(CursesKeyDecoder.keys(characters("\u{1B}[201~q")) == [.character("q")])
        // A bracketed paste is text, never keys, even keys ncurses decoded inside it.
        #expect(
            CursesKeyDecoder.keys(
                characters("\u{1B}[200~1R") + [(KEY_CODE_YES, UInt32(KEY_HOME))] + characters("q\u{1B}[201~"))
                == [.paste("1Rq")])
        #expect(CursesKeyDecoder.keys(characters("\u{1B}1")) == [.alt("1")])
        // ESC, then a key ncurses decoded: Esc typed just before Home, both kept; a code that is no key (a mouse
        // report's start) takes the ESC with it.
        #expect(CursesKeyDecoder.keys([(OK, 27), (KEY_CODE_YES, UInt32(KEY_HOME))]) == [.escape, .home])
        #expect(CursesKeyDecoder.keys([(OK, 27), (KEY_CODE_YES, UInt32(KEY_MOUSE)), (OK, 0x34)]) == [.character("4")])
        // A resize is reported at once, and what was pending stays pending.
        #expect(
            CursesKeyDecoder.keys([(OK, 27), (KEY_CODE_YES, UInt32(KEY_RESIZE)), (OK, 0x5B), (OK, 0x41)])
                == [.resize, .up])
    }
}
