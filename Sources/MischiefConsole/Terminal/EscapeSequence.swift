/// A CSI (`ESC [`) or SS3 (`ESC O`) sequence being read by ``KeyInputDecoder``, and the keys such sequences mean.
///
/// Grammar (ECMA-48): parameter bytes `0x30–0x3F`, then intermediate bytes `0x20–0x2F`, then one final byte
/// `0x40–0x7E`. Only the first numeric parameter is kept (`ESC [ 5 ; 3 ~` is PgUp whatever the modifier); private
/// markers (`<`, `=`, `>`, `?`), sub-parameters (`:`), intermediates and parameters after intermediates make a
/// sequence one no key answers to. Nothing is stored per byte, so a sequence of any length takes no memory.
struct EscapeSequence: Sendable {
    /// How the sequence started.
    enum Introducer: Sendable {
        /// `ESC [` (or the 8-bit CSI, U+009B).
        case csi
        /// `ESC O` (or the 8-bit SS3, U+008F).
        case ss3
    }

    /// How the sequence started.
    let introducer: Introducer
    /// The first numeric parameter (saturated), or `nil` while none was read.
    private var first: Int?
    /// Whether a `;` ended the first parameter.
    private var pastFirst = false
    /// Whether a byte was read after the introducer.
    private(set) var hasBytes = false
    /// Whether intermediate bytes were read.
    private var hasIntermediates = false
    /// Whether the sequence is malformed or uses a form no key answers to.
    private var isForeign = false

    /// A new, empty sequence.
    init(_ introducer: Introducer) {
        self.introducer = introducer
    }

    /// Reads a parameter byte (`0x30–0x3F`).
    mutating func parameter(_ byte: UInt8) {
        hasBytes = true
        if hasIntermediates {
            isForeign = true
        }
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            if !pastFirst {
                first = min(10_000, (first ?? 0) * 10 + Int(byte - UInt8(ascii: "0")))
            }
        case UInt8(ascii: ";"):
            pastFirst = true
        default:
            isForeign = true  // ':' sub-parameters and the private markers '<', '=', '>', '?'
        }
    }

    /// Reads an intermediate byte (`0x20–0x2F`).
    mutating func intermediate() {
        hasBytes = true
        hasIntermediates = true
        isForeign = true
    }

    /// The key the sequence means with `final` (`0x40–0x7E`) as its last byte, or `nil` for one no key answers to.
    func key(final: UInt8) -> Key? {
        guard !isForeign else { return nil }
        switch (introducer, Unicode.Scalar(final)) {
        case (_, "A"): return .up
        case (_, "B"): return .down
        case (_, "C"): return .right
        case (_, "D"): return .left
        case (_, "H"): return .home
        case (_, "F"): return .end
        case (_, "P"): return .function(1)
        case (_, "Q"): return .function(2)
        case (_, "R"): return .function(3)
        case (_, "S"): return .function(4)
        case (.csi, "Z"): return .backTab
        case (.csi, "~"): return first.flatMap(Self.tildeKey)
        case (.ss3, "M"): return .enter
        case (.ss3, let keypad):
            // The application keypad: `ESC O p` … `ESC O y` are its digits, `j` … `o` and `X` its operators.
            return Self.keypad[keypad].map(Key.character)
        default: return nil
        }
    }

    /// Whether the sequence with `final` as its last byte starts a bracketed paste: `ESC [ 200 ~`.
    func startsPaste(final: UInt8) -> Bool {
        introducer == .csi && !isForeign && !pastFirst && first == 200 && final == UInt8(ascii: "~")
    }

    /// The keys of `ESC [ n ~` (VT220, xterm, tmux/screen, rxvt and the Linux console).
    static func tildeKey(_ number: Int) -> Key? {
        switch number {
        case 1, 7: .home
        case 4, 8: .end
        case 2: .insert
        case 3: .delete
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23...26: .function(number - 12)
        case 28...29: .function(number - 13)
        case 31...34: .function(number - 14)
        default: nil
        }
    }

    /// The application keypad's SS3 finals and the characters they type.
    static let keypad: [Unicode.Scalar: Character] = [
        "j": "*", "k": "+", "l": ",", "m": "-", "n": ".", "o": "/", "X": "=", "p": "0", "q": "1", "r": "2", "s": "3",
        "t": "4", "u": "5", "v": "6", "w": "7", "x": "8", "y": "9",
    ]
}
