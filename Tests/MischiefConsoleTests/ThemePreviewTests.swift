import MischiefConsole
import Testing

@Suite struct ThemePreviewTests {
    @Test func escapesFollowTheDepth() {
        let entry = Palette.Entry(foreground: .rgb(0xff, 0xd7, 0x5f), background: .rgb(0, 0, 0), bold: true)
        #expect(ANSIStyle.escape(for: entry, depth: .trueColour) == "\u{1B}[1;38;2;255;215;95;48;2;0;0;0m")
        #expect(ANSIStyle.escape(for: entry, depth: .colours256) == "\u{1B}[1;38;5;221;48;5;16m")
        #expect(ANSIStyle.escape(for: entry, depth: .colours8) == "\u{1B}[1;33;40m")
        #expect(ANSIStyle.escape(for: entry, depth: .monochrome) == "\u{1B}[1m")
        let named = Palette.Entry(foreground: .named(.brightRed), background: .named(.blue), reverse: true, dim: true)
        #expect(ANSIStyle.escape(for: named, depth: .colours256) == "\u{1B}[2;7;91;44m")
        #expect(ANSIStyle.escape(for: named, depth: .colours8) == "\u{1B}[2;7;31;44m")
        #expect(ANSIStyle.escape(for: .init(foreground: .indexed(245)), depth: .trueColour) == "\u{1B}[38;5;245m")
        #expect(ANSIStyle.escape(for: .init(foreground: .default), depth: .trueColour) == "")
        #expect(ANSIStyle.styled("x", .init(foreground: .default), depth: .trueColour) == "x")
        #expect(ANSIStyle.styled("x", .init(foreground: .named(.red)), depth: .colours8) == "\u{1B}[31mx\u{1B}[0m")
    }

    @Test func plainPreviewListsEveryRole() {
        let lines = ThemePreview.lines(for: .default, depth: nil)
        #expect(lines.count == StyleRole.allCases.count)
        #expect(lines.first == "  background  default")
        #expect(lines.contains("  title       #ffd75f bold"))
        #expect(lines.contains("  selection   #000000 on #87afd7"))
        #expect(!lines.joined().contains("\u{1B}"))
        #expect(ThemePreview.lines(for: .mono, depth: nil).contains("  selection   default reverse"))
        #expect(ThemePreview.lines(for: .mono, depth: nil).contains("  muted       default dim"))
    }

    @Test func colourPreviewDrawsTheRoleName() {
        let lines = ThemePreview.lines(for: .default, depth: .colours256, indent: "")
        #expect(lines.contains("\u{1B}[1;38;5;221mtitle     \u{1B}[0m  #ffd75f bold"))
        #expect(lines.first == "background  default")
    }

    @Test func depthComesFromColorTermThenTerm() {
        #expect(ColourDepth.detected(environment: ["COLORTERM": "truecolor", "TERM": "xterm"]) == .trueColour)
        #expect(ColourDepth.detected(environment: ["COLORTERM": "24bit"]) == .trueColour)
        #expect(ColourDepth.detected(environment: ["COLORTERM": "yes", "TERM": "xterm-256color"]) == .colours256)
        #expect(ColourDepth.detected(environment: ["TERM": "screen-256color"]) == .colours256)
        #expect(ColourDepth.detected(environment: ["TERM": "xterm"]) == .colours8)
        #expect(ColourDepth.detected(environment: [:]) == .colours8)
    }
}
