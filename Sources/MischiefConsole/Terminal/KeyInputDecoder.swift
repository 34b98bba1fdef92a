/// Turns what a terminal reads into ``Key``s: pure, so it is testable (and fuzzed) without a terminal.
///
/// It is fed characters (Unicode scalar values, controls included) and, from a terminal library that decodes some
/// sequences itself (ncurses' `KEY_*` codes), whole keys. Escape sequences are recognised in the common encodings
/// whatever `TERM` says — xterm (`ESC [ H`, `ESC O H`, `ESC [ 1 ; 5 H`), tmux/screen and VT220 (`ESC [ 1 ~`),
/// rxvt (`ESC [ 7 ~`), the Linux console (`ESC [ [ A` for F1) — and a sequence it does not know is swallowed whole
/// (CSI `ESC [` parameters, intermediates, final `0x40–0x7E`; SS3 `ESC O`): its bytes never become keys.
///
/// ESC followed by a printable character is Alt with it: ``Key/alt(_:)``, never the character itself, so Alt-1 does
/// not toggle preset 1. ESC followed by a control is swallowed. A lone ESC stays pending until more input comes or
/// the reader calls ``flush(emit:)`` because none came in time; then it is ``Key/escape``.
///
/// A loaded machine or a slow link can split a sequence after its ESC, past any wait: the ESC has become the Escape
/// key when `[<0;11;8M` arrives, whose digits would switch presets. So a `[` or `O` that comes next after a lone ESC
/// was given up on still begins a sequence (see ``hasGivenUpOnEscape``), until the reader calls ``flush(emit:)``
/// again. `[` and `O` are no console keys, so this costs a user nothing but a key typed right after them.
///
/// A bracketed paste (`ESC [ 200 ~` text `ESC [ 201 ~`, sent by terminals once the console asked with
/// `ESC [ ? 2004 h`) is one ``Key/paste(_:)`` with the text between the markers, whatever it holds (newlines, ESC,
/// digits): never keys. It may come over many reads; one that never ends is ended by ``flush(emit:)`` (the reader
/// calls it after a silence, see ``isInsidePaste``), and at most ``pasteLimit`` characters of it are kept.
///
/// ```swift
/// KeyInputDecoder.keys(in: Array("\u{1B}[200~q\r1\u{1B}[201~".utf8))  // [.paste("q\r1")]
/// KeyInputDecoder.keys(in: Array("\u{1B}[1~q".utf8))  // [.home, .character("q")]
/// KeyInputDecoder.keys(in: Array("\u{1B}[99;9Xq".utf8))  // [.character("q")]: the unknown sequence is swallowed
/// ```
package struct KeyInputDecoder: Sendable {
    /// Where the decoder is in its input.
    private enum State: Sendable, Equatable {
        /// Between keys.
        case ground
        /// After ESC (`doubled`: after ESC ESC).
        case escape(doubled: Bool)
        /// Inside a CSI or SS3 sequence (see `sequence`).
        case sequence
        /// After `ESC [ [`: the Linux console's F1–F5 take one more byte.
        case linuxFunction
        /// After a lone ESC that was given up on (flushed as the Escape key): `[` or `O` still begins a sequence.
        case escapeGivenUp
        /// Inside a bracketed paste (see `paste`).
        case paste
    }

    /// The most characters (Unicode scalars) of one paste kept; the rest is dropped (see ``Key/paste(_:)``).
    package static let pasteLimit = 1 << 20

    /// What ends a bracketed paste: `ESC [ 201 ~`.
    private static let pasteEnd: [UInt32] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    private var state = State.ground
    private var sequence = EscapeSequence(.csi)
    /// The paste read so far, and how much of its end marker came last.
    private var pasted = String.UnicodeScalarView()
    private var pastedCount = 0
    private var pasteEndMatched = 0

    /// A decoder between keys.
    package init() {}

    /// Whether input read so far waits for more (a lone ESC, an unfinished sequence).
    package var isPending: Bool {
        switch state {
        case .ground, .escapeGivenUp, .paste: false
        default: true
        }
    }

    /// Whether a bracketed paste has begun and its end marker has not come yet. A terminal sends a paste in one go;
    /// the reader ends one that stays unfinished through a silence with ``flush(emit:)``, so keys typed afterwards
    /// are keys again.
    package var isInsidePaste: Bool { state == .paste }

    /// Whether a lone ESC was flushed as the Escape key and nothing came since: the rest of a split sequence may
    /// still come. The reader ends this with ``flush(emit:)`` once that is no longer likely (a second, say).
    package var hasGivenUpOnEscape: Bool { state == .escapeGivenUp }

    /// Whether a sequence has begun (`ESC [`, `ESC O`, CSI) and waits for its final byte: terminals send a sequence
    /// in one write, so only a loaded machine splits one, and its tail must not become keys.
    package var isInsideSequence: Bool {
        switch state {
        case .sequence, .linuxFunction: true
        default: false
        }
    }

    /// Feeds one character the terminal read: a Unicode scalar value, or a C0/C1 control.
    package mutating func feed(character code: UInt32, emit: (Key) -> Void) {
        switch state {
        case .paste:
            feedPaste(code, emit: emit)
        case .escapeGivenUp:
            switch code {
            case 0x5B: begin(.csi)  // [
            case 0x4F: begin(.ss3)  // O
            default:
                state = .ground
                feed(character: code, emit: emit)
            }
        case .ground:
            switch code {
            case 0x1B: state = .escape(doubled: false)
            case 0x9B: begin(.csi)
            case 0x8F: begin(.ss3)
            default: Self.plainKey(code).map(emit)
            }
        case .escape(let doubled):
            switch code {
            case 0x1B:
                if doubled { emit(.escape) }
                state = .escape(doubled: true)
            case 0x5B, 0x4F:
                // ESC ESC [ F is Esc typed just before End (or Alt-End from a terminal that prefixes ESC): the Esc
                // is never swallowed, since nothing here is bound to Alt with a special key.
                if doubled { emit(.escape) }
                begin(code == 0x5B ? .csi : .ss3)  // [ or O
            default:
                state = .ground
                if case .character(let character)? = Self.plainKey(code) { emit(.alt(character)) }
            }
        case .sequence:
            switch code {
            case 0x30...0x3F: sequence.parameter(UInt8(code))
            case 0x20...0x2F: sequence.intermediate()
            case 0x5B where sequence.introducer == .csi && !sequence.hasBytes: state = .linuxFunction
            case 0x40...0x7E where sequence.startsPaste(final: UInt8(code)):
                state = .paste
                pasted = String.UnicodeScalarView()
                pastedCount = 0
                pasteEndMatched = 0
            case 0x40...0x7E:
                state = .ground
                sequence.key(final: UInt8(code)).map(emit)
            default: abandon(at: code)
            }
        case .linuxFunction:
            switch code {
            case 0x41...0x45:
                state = .ground
                emit(.function(Int(code) - 0x40))
            case 0x20...0x7E: state = .ground
            default: abandon(at: code)
            }
        }
    }

    /// Feeds a key the terminal library decoded itself, or `nil` for one it decoded that has no ``Key``.
    ///
    /// After a pending ESC it is Esc, then that key: Esc typed just before End must not be lost (nothing here is
    /// bound to Alt with a special key); a code that is no key (nil) swallows the ESC. It ends an unfinished
    /// sequence.
    package mutating func feed(key: Key?, emit: (Key) -> Void) {
        // Inside a paste, a key the library made of pasted bytes is dropped: a paste is text, never keys.
        guard state != .paste else { return }
        // A code that is no key (the start of a mouse report) takes the ESC with it, as before.
        if case .escape = state, key != nil { emit(.escape) }
        state = .ground
        key.map(emit)
    }

    /// Reads what comes next as the rest of an SGR mouse report whose `ESC [ <` a terminal library took for its
    /// mouse key without reading the report (ncurses does, with mouse reporting off): the parameters and the final
    /// `M` or `m` are swallowed with the sequence, never typed.
    package mutating func continueMouseReport() {
        begin(.csi)
        sequence.parameter(0x3C)  // <
    }

    /// Says that no more input came in time: a lone ESC (or ESC ESC) is the Escape key (and the decoder is then
    /// ``hasGivenUpOnEscape``); an unfinished sequence is dropped; after a given-up ESC, a `[` or `O` is a key again.
    package mutating func flush(emit: (Key) -> Void) {
        if state == .paste {
            endPaste(emit: emit)
        } else if case .escape = state {
            emit(.escape)
            state = .escapeGivenUp
        } else {
            state = .ground
        }
    }

    /// The keys in a byte stream (UTF-8; invalid bytes are dropped), read as if no more input came after it.
    package static func keys(in bytes: some Sequence<UInt8>) -> [Key] {
        var decoder = KeyInputDecoder()
        var keys: [Key] = []
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                decoder.feed(character: Unicode.UTF8.decode(encoded).value) { keys.append($0) }
            case .error:
                continue
            case .emptyInput:
                decoder.flush { keys.append($0) }
                return keys
            }
        }
    }

    /// Reads one character of a paste: text, unless it continues the end marker.
    private mutating func feedPaste(_ code: UInt32, emit: (Key) -> Void) {
        let end = Self.pasteEnd
        if code == end[pasteEndMatched] {
            pasteEndMatched += 1
            if pasteEndMatched == end.count { endPaste(emit: emit) }
            return
        }
        // What looked like the start of the end marker was text after all.
        for matched in end.prefix(pasteEndMatched) { appendPasted(matched) }
        pasteEndMatched = code == end[0] ? 1 : 0
        if pasteEndMatched == 0 { appendPasted(code) }
    }

    private mutating func appendPasted(_ code: UInt32) {
        guard pastedCount < Self.pasteLimit, let scalar = Unicode.Scalar(code) else { return }
        pasted.append(scalar)
        pastedCount += 1
    }

    /// Emits the paste read so far (an unfinished end marker is dropped) and goes back to keys.
    private mutating func endPaste(emit: (Key) -> Void) {
        let text = String(pasted)
        pasted = String.UnicodeScalarView()
        pastedCount = 0
        pasteEndMatched = 0
        state = .ground
        emit(.paste(text))
    }

    /// Starts a CSI or SS3 sequence.
    private mutating func begin(_ introducer: EscapeSequence.Introducer) {
        sequence = EscapeSequence(introducer)
        state = .sequence
    }

    /// Ends an unfinished sequence at a character that cannot continue it: ESC or an 8-bit introducer starts the
    /// next sequence; anything else (a control, DEL, a non-ASCII character) is swallowed with the sequence.
    private mutating func abandon(at code: UInt32) {
        switch code {
        case 0x1B: state = .escape(doubled: false)
        case 0x9B: begin(.csi)
        case 0x8F: begin(.ss3)
        default: state = .ground
        }
    }

    /// The key of a character outside escape sequences: controls as their keys, C1 controls and non-scalars as
    /// nothing, anything else as itself.
    static func plainKey(_ code: UInt32) -> Key? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 0: return .control("@")
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(0x60 + code))))
        case 28: return .control("\\")
        case 29: return .control("]")
        case 30: return .control("^")
        case 31: return .control("_")
        case 0x80...0x9F: return nil
        default: return Unicode.Scalar(code).map { .character(Character($0)) }
        }
    }
}
