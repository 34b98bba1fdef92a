import CNcurses
import MischiefConsole

/// Decodes the raw results of ncurses' `wget_wch` into ``Key``s; pure, so it is testable without a terminal.
public enum CursesKeyDecoder {
    /// Decodes one `wget_wch` result.
    ///
    /// - Parameters:
    ///   - status: the return value of `wget_wch`: `OK` for a character, `KEY_CODE_YES` for a function key code.
    ///   - code: the character or key code `wget_wch` stored.
    /// - Returns: the key, or `nil` for `ERR` and codes that have no ``Key``.
    public static func decode(status: Int32, code: UInt32) -> Key? {
        switch status {
        case KEY_CODE_YES:
            return decodeKeyCode(Int32(bitPattern: code))
        case OK:
            return decodeCharacter(code)
        default:
            return nil
        }
    }

    /// Decodes an ncurses `KEY_*` code.
    static func decodeKeyCode(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME, KEY_A1: return .home
        case KEY_END, KEY_C1: return .end
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_RESIZE: return .resize
        case (KEY_F0 + 1)...(KEY_F0 + 63): return .function(Int(code - KEY_F0))
        default: return nil
        }
    }

    /// Decodes a character returned with status `OK` (control characters included).
    static func decodeCharacter(_ code: UInt32) -> Key? {
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
        case 0x80...0x9F: return nil  // C1 controls
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }
}
