import CNcurses
import Glibc
import Mischief
import MischiefConsole
import Testing

@testable import MischiefCurses

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The grid → ncurses step: what each cell becomes, and that whole screens of target text convert to rows exactly
/// as wide as the screen.
@Suite struct CursesCellTextTests {
    init() {
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }

    /// What the demo's target pane shows under presets 4 (Right-to-left: ar-XB wraps every string in RLM, RLO …
    /// PDF, RLM) and 6 (Garbage models: the profile card with the mutator's hostile strings); rendering it and
    /// converting it for ncurses ended the process (`Character` built from several graphemes).
    @Test(arguments: [ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 40, columns: 120)])
    func demoPresetTextConverts(size: ScreenSize) throws {
        let rtl = { (text: String) in "\u{200F}\u{202E}" + text + "\u{202C}\u{200F}" }
        let lines: [TargetView.Line] = [
            .init(rtl("✉ Greeting"), role: "title"),
            .init("  │ " + rtl("Hello, %@!") + " │"),
            .init("☺ Profile card", role: "title"),
            .init("  🐙🔥👩‍👩‍👧‍👦🇵🇹🙈 (\u{202E}مرحبا بالعالم עברית)", role: "accent"),
            .init("  Zoë Ångström-Núñez, ça va? ÀÉÎÕÜ ß ø · -2147483648 years · \u{FFFD}unknown ★"),
            .init("  likes  \t \n  , \u{202E}مرحبا بالعالم עברית"),
            .init("  member since 4001-01-01", role: "muted"),
        ]
        var state = ConsoleState(size: size, timeZone: TimeZone(secondsFromGMT: 0)!)
        let data = ConsoleData(
            target: TargetHeader(name: "demo", pid: 1, uptime: .seconds(5), sessionSeed: 7, wallTime: Date()),
            seams: [SeamSnapshot(id: "model.user.decode", title: rtl("User profile"), category: "Model")],
            view: TargetView(title: rtl("Demo"), lines: lines))
        state.show(data)
        for key: Key in [.character("6"), .tab, .tab, .pageDown, .pageDown] {
            _ = Console.update(&state, .key(key))
        }
        let grid = Console.render(state, size: size, theme: .standard)
        for y in 0..<grid.height {
            let writes = CursesCellText.row(grid.row(y), visibleWidth: grid.width)
            #expect(writes.reduce(0) { $0 + $1.columns } == grid.width, "row \(y)")
        }
    }

    /// Even a cell the grid would never make converts to printable characters covering the cell's columns.
    @Test func everyWriteCoversItsCellsColumns() {
        let style = Style.text
        let cases: [(String, Int)] = [
            ("a", 1), ("東", 2), ("", 1), ("🇵", 2), ("🇵🇹", 2), ("👩‍👩‍👧‍👦", 2), ("❤\u{FE0F}", 2), ("\u{202E}", 1),
            ("\u{1B}", 1), ("e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}", 1), ("x\u{200B}", 1), ("\u{9B}", 1),
        ]
        for (text, columns) in cases {
            let write = CursesCellText.write(for: Cell(text, style: style), x: 0, visibleWidth: 10)
            #expect(write.columns == columns, "\(text.unicodeScalars.map(\.value))")
            #expect(write.characters.count <= CursesCellText.maxCharacters)
            #expect(Int(cn_wcwidth(write.characters[0])) == write.width)
            for character in write.characters {
                let scalar = Unicode.Scalar(UInt32(bitPattern: character))!
                #expect(![.control, .format].contains(scalar.properties.generalCategory))
            }
        }
        // A wide grapheme in the last column becomes a space.
        #expect(CursesCellText.write(for: Cell("東", style: style), x: 9, visibleWidth: 10).characters == [0x20])
    }

    /// The characters and width ncurses is given for `text`.
    static func characters(_ text: String) -> ([wchar_t], Int) {
        let write = CursesCellText.terminalCharacters(text)
        return (write.characters, write.width)
    }

    @Test func terminalCharactersFollowTheCLibrary() {
        #expect(Self.characters("a") == ([0x61], 1))
        #expect(Self.characters("東") == ([0x6771], 2))
        #expect(Self.characters("e\u{301}") == ([0x65, 0x301], 1))
        #expect(Self.characters("") == ([0x20], 1))
        // ZWJ sequences are cut to their first emoji; U+FE0F is dropped where the C library says narrow.
        #expect(CursesCellText.terminalCharacters("👩\u{200D}💻").characters == [0x1F469])
        #expect(Self.characters("❤\u{FE0F}") == ([0x2764], 1))
    }
}
