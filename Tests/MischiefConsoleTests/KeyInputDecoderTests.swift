import MischiefConsole
import Testing

/// Keys from bytes, in the encodings terminals use, and what becomes of sequences nobody knows.
@Suite struct KeyInputDecoderTests {
    private func keys(_ text: String) -> [Key] { KeyInputDecoder.keys(in: Array(text.utf8)) }

    @Test func theRestOfAMouseReportWhosePrefixWasTakenIsSwallowed() {
        var decoder = KeyInputDecoder()
        var keys: [Key] = []
        decoder.continueMouseReport()
        for scalar in "0;11;8M5".unicodeScalars { decoder.feed(character: scalar.value) { keys.append($0) } }
        #expect(keys == [.character("5")])  // the report's digits are no keys; what follows it is
    }

    @Test func homeAndEndInEveryEncoding() {
        for home in ["\u{1B}[H", "\u{1B}OH", "\u{1B}[1~", "\u{1B}[7~", "\u{1B}[1;5H", "\u{1B}[1;2~", "\u{1B}O5H"] {
            #expect(keys(home) == [.home], "\(Array(home.utf8))")
        }
        for end in ["\u{1B}[F", "\u{1B}OF", "\u{1B}[4~", "\u{1B}[8~", "\u{1B}[1;3F", "\u{1B}[4;5~"] {
            #expect(keys(end) == [.end], "\(Array(end.utf8))")
        }
        #expect(
            keys("\u{1B}[2~\u{1B}[3~\u{1B}[5~\u{1B}[6~\u{1B}[5;5~") == [.insert, .delete, .pageUp, .pageDown, .pageUp])
        #expect(keys("\u{1B}[A\u{1B}OB\u{1B}[1;5C\u{1B}[D\u{1B}[Z") == [.up, .down, .right, .left, .backTab])
    }

    @Test func functionKeysInEveryEncoding() {
        let xterm = [
            "\u{1B}OP", "\u{1B}OQ", "\u{1B}OR", "\u{1B}OS", "\u{1B}[15~", "\u{1B}[17~", "\u{1B}[18~",
            "\u{1B}[19~", "\u{1B}[20~", "\u{1B}[21~", "\u{1B}[23~", "\u{1B}[24~",
        ]
        #expect(keys(xterm.joined()) == (1...12).map(Key.function))
        let vt220 = ["\u{1B}[11~", "\u{1B}[12~", "\u{1B}[13~", "\u{1B}[14~"]
        #expect(keys(vt220.joined()) == (1...4).map(Key.function))
        let linux = ["\u{1B}[[A", "\u{1B}[[B", "\u{1B}[[C", "\u{1B}[[D", "\u{1B}[[E"]
        #expect(keys(linux.joined()) == (1...5).map(Key.function))
        #expect(keys("\u{1B}[1;2P\u{1B}[15;5~\u{1B}O2Q") == [.function(1), .function(5), .function(2)])
    }

    /// A stray end of paste, device attributes, SGR mouse, modifyOtherKeys, kitty's CSI u, focus events, an unknown SS3:
    /// all swallowed whole, so the text after each is read as it is.
    @Test func unknownSequencesAreSwallowedWhole() {
        let unknown = [
            "\u{1B}[201~", "\u{1B}[?1;2c", "\u{1B}[<0;10;5M", "\u{1B}[27;5;49~", "\u{1B}[49;5u", "\u{1B}[I",
            "\u{1B}[O", "\u{1B}Oz", "\u{1B}[1$y", "\u{1B}[ q", "\u{1B}[1:2A", "\u{1B}[99~", "\u{1B}[[Z",
            "\u{1B}[123456789012345678901234567890~",
        ]
        for sequence in unknown {
            #expect(keys(sequence + "x") == [.character("x")], "\(Array(sequence.utf8))")
        }
        // Many parameters are fine as long as the form is known: only the first counts.
        #expect(keys("\u{1B}[1;2;3;4;5;6;7;8;9;10;11;12A") == [.up])
    }

    @Test func altChordsAreDistinctFromTheirCharacters() {
        #expect(keys("\u{1B}1\u{1B}4\u{1B}q") == [.alt("1"), .alt("4"), .alt("q")])
        #expect(keys("\u{1B}é") == [.alt("é")])
        #expect(keys("\u{1B}\t\u{1B}\r\u{1B}\u{7F}") == [])  // Alt with a control: swallowed
    }

    @Test func loneEscapesAndUnfinishedSequences() {
        #expect(keys("\u{1B}") == [.escape])
        var lone = KeyInputDecoder()
        lone.feed(character: 0x1B) { _ in }
        #expect(lone.isPending && !lone.isInsideSequence)  // a lone ESC is the Escape key after a short wait
        #expect(keys("\u{1B}\u{1B}") == [.escape])
        // Esc typed just before Up (or Alt-Up as some terminals send it): the Esc is never swallowed.
        #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
        #expect(keys("\u{1B}\u{1B}[F") == [.escape, .end])
        #expect(keys("\u{1B}[1;5") == [])
        var decoder = KeyInputDecoder()
        var seen: [Key] = []
        for byte in "\u{1B}[1".utf8 {
            decoder.feed(character: UInt32(byte)) { seen.append($0) }
        }
        #expect(decoder.isPending)
        #expect(decoder.isInsideSequence)  // so the terminal waits longer for the rest of it
        decoder.flush { seen.append($0) }
        #expect(!decoder.isPending)
        decoder.feed(character: 0x31) { seen.append($0) }
        #expect(seen == [.character("1")])
        // An ESC inside a sequence starts the next; a control inside one ends it and is swallowed with it.
        #expect(keys("\u{1B}[1\u{1B}[4~") == [.end])
        #expect(keys("\u{1B}[1\u{3}q") == [.character("q")])
    }

    /// A sequence split after its ESC, past the wait: the Escape key, then the tail read as a sequence, not as keys.
    @Test func aSequenceSplitAfterItsEscapeIsNotTyped() {
        func split(_ head: String, _ tail: String, flushes: Int = 1) -> [Key] {
            var decoder = KeyInputDecoder()
            var seen: [Key] = []
            for byte in head.utf8 { decoder.feed(character: UInt32(byte)) { seen.append($0) } }
            for _ in 0..<flushes { decoder.flush { seen.append($0) } }
            for byte in tail.utf8 { decoder.feed(character: UInt32(byte)) { seen.append($0) } }
            decoder.flush { seen.append($0) }
            return seen
        }
        // A mouse report's digits would switch presets 1 and 8.
        #expect(split("\u{1B}", "[<0;11;8Mq") == [.escape, .character("q")])
        #expect(split("\u{1B}", "[A") == [.escape, .up])
        #expect(split("\u{1B}", "OR") == [.escape, .function(3)])  // F3, whose R would revert everything
        #expect(split("\u{1B}\u{1B}", "[B") == [.escape, .down])
        // Anything else after it is a plain key, not Alt with it; the state ends with the next flush.
        #expect(split("\u{1B}", "1[") == [.escape, .character("1"), .character("[")])
        #expect(split("\u{1B}", "[q", flushes: 2) == [.escape, .character("["), .character("q")])
        var decoder = KeyInputDecoder()
        decoder.feed(character: 0x1B) { _ in }
        decoder.flush { _ in }
        #expect(decoder.hasGivenUpOnEscape && !decoder.isPending)  // the reader does not wait, it keeps the time
        decoder.feed(key: .pageDown) { _ in }
        #expect(!decoder.hasGivenUpOnEscape)
        // Esc, then End decoded by the terminal library before the ESC was given up: both keys, in order.
        var pending = KeyInputDecoder()
        var got: [Key] = []
        pending.feed(character: 0x1B) { got.append($0) }
        pending.feed(key: .end) { got.append($0) }
        #expect(got == [.escape, .end])
    }

    @Test func eightBitIntroducersAndBrokenUTF8() {
        #expect(keys("\u{9B}1~\u{8F}P") == [.home, .function(1)])
        #expect(keys("\u{85}a") == [.character("a")])
        #expect(
            KeyInputDecoder.keys(in: [0xE6, 0x9D, 0x61, 0xFF, 0x80, 0xE6, 0x9D, 0xB1]) == [
                .character("a"), .character("東"),
            ])
    }

    @Test func plainKeys() {
        #expect(
            keys("q\t\r\n\u{7F}\u{8}\u{3}\u{0}\u{1F}") == [
                .character("q"), .tab, .enter, .enter, .backspace,
                .backspace, .control("c"), .control("@"), .control("_"),
            ])
        #expect(keys("\u{1B}Oq\u{1B}OM") == [.character("1"), .enter])  // the application keypad
    }
}

/// Bracketed paste: `ESC [ 200 ~` … `ESC [ 201 ~` is one paste, whatever it holds and however it is split.
@Suite struct KeyInputDecoderPasteTests {
    @Test func aBracketedPasteIsOneKeyOfText() {
        #expect(
            KeyInputDecoder.keys(in: Array("a\u{1B}[200~q\r1\u{1B}[A\u{1B}[201~b".utf8)) == [
                .character("a"), .paste("q\r1\u{1B}[A"), .character("b"),
            ])
        #expect(KeyInputDecoder.keys(in: Array("\u{1B}[200~x\u{1B}[20y\u{1B}[201~".utf8)) == [.paste("x\u{1B}[20y")])
    }

    @Test func aPasteSplitAcrossReadsIsStillOnePaste() {
        let bytes = Array("\u{1B}[200~clock\rR\u{1B}[201~1".utf8)
        for split in 1..<bytes.count {
            var decoder = KeyInputDecoder()
            var keys: [Key] = []
            for part in [bytes[..<split], bytes[split...]] {
                for byte in part { decoder.feed(character: UInt32(byte)) { keys.append($0) } }
            }
            decoder.flush { keys.append($0) }
            #expect(keys == [.paste("clock\rR"), .character("1")], "split at \(split)")
        }
    }

    @Test func anUnterminatedPasteEndsAtAFlushAndIsBounded() {
        var decoder = KeyInputDecoder()
        var keys: [Key] = []
        for byte in Array("\u{1B}[200~abc\u{1B}[20".utf8) { decoder.feed(character: UInt32(byte)) { keys.append($0) } }
        #expect(decoder.isInsidePaste)
        #expect(!decoder.isPending)
        decoder.flush { keys.append($0) }
        #expect(keys == [.paste("abc")])
        decoder.feed(character: UInt32(UInt8(ascii: "q"))) { keys.append($0) }
        #expect(keys.last == .character("q"))

        var big = KeyInputDecoder()
        var pasted = 0
        for byte in Array("\u{1B}[200~".utf8) { big.feed(character: UInt32(byte)) { _ in } }
        for _ in 0..<(KeyInputDecoder.pasteLimit + 10) { big.feed(character: 0x61) { _ in } }
        for byte in Array("\u{1B}[201~".utf8) {
            big.feed(character: UInt32(byte)) { key in
                if case .paste(let text) = key { pasted = text.unicodeScalars.count }
            }
        }
        #expect(pasted == KeyInputDecoder.pasteLimit)
    }

    @Test func typedRunsGatherCharactersAndKeepOtherKeys() {
        var run = TypedRun()
        var keys: [Key] = []
        for key in [Key.character("a"), .character("b"), .enter, .character("c"), .paste("x")] {
            run.add(key) { keys.append($0) }
        }
        run.flush { keys.append($0) }
        #expect(keys == [.typed("ab"), .enter, .character("c"), .paste("x")])
    }
}
