import CNcurses
import MischiefConsole
import MischiefCurses
import Testing

@Suite struct CursesKeyDecoderTests {
    /// Decodes a `KEY_*` code returned with `KEY_CODE_YES`.
    private func keyCode(_ code: Int32) -> Key? {
        CursesKeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(code))
    }

    /// Decodes a character returned with `OK`.
    private func character(_ code: UInt32) -> Key? {
        CursesKeyDecoder.decode(status: OK, code: code)
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
        #expect(CursesKeyDecoder.decode(status: ERR, code: 0) == nil)
    }
}
