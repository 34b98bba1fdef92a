import CNcurses

extension CursesCellText {
    /// One `setcchar`/`mvwadd_wch` write: a base character and up to four combining characters, held inline (no
    /// allocation per cell on the drawing path) and NUL-terminated for `setcchar`.
    struct Write: Equatable {
        /// The characters and the terminating NUL (`CCHARW_MAX` + 1).
        private var storage: (wchar_t, wchar_t, wchar_t, wchar_t, wchar_t, wchar_t) = (0, 0, 0, 0, 0, 0)
        /// How many characters there are (1 to ``CursesCellText/maxCharacters``).
        private(set) var count = 0
        /// The columns the C library advances for the characters: 1 or 2.
        var width: Int
        /// Whether a space follows in the next column (the grid's cell is wider than the C library thinks).
        var padded = false

        /// A write of one character.
        init(_ character: wchar_t, width: Int) {
            storage.0 = character
            count = 1
            self.width = width
        }

        /// Adds a combining character; ignored past ``CursesCellText/maxCharacters``.
        mutating func append(_ character: wchar_t) {
            switch count {
            case 0: storage.0 = character
            case 1: storage.1 = character
            case 2: storage.2 = character
            case 3: storage.3 = character
            case 4: storage.4 = character
            default: return
            }
            count += 1
        }

        /// The character at `index` (`0..<count`).
        subscript(index: Int) -> wchar_t {
            precondition(index >= 0 && index < count, "character \(index) of \(count)")
            switch index {
            case 0: return storage.0
            case 1: return storage.1
            case 2: return storage.2
            case 3: return storage.3
            default: return storage.4
            }
        }

        /// The characters, for tests.
        var characters: [wchar_t] { (0..<count).map { self[$0] } }

        /// The grid columns the write covers.
        var columns: Int { width + (padded ? 1 : 0) }

        /// Calls `body` with the NUL-terminated characters.
        func withTerminatedCharacters<Result>(_ body: (UnsafePointer<wchar_t>) -> Result) -> Result {
            withUnsafeBytes(of: storage) { body($0.assumingMemoryBound(to: wchar_t.self).baseAddress!) }
        }

        static func == (left: Write, right: Write) -> Bool {
            left.characters == right.characters && left.width == right.width && left.padded == right.padded
        }
    }
}
