import MischiefConsole
import MischiefCurses
import Testing

@Suite struct CursesColourPlanTests {
    @Test func detectsDepthFromColourCountAndColorTerm() {
        #expect(CursesColourPlan.detectedDepth(hasColours: false, colours: 256, colorTerm: "truecolor") == .monochrome)
        #expect(CursesColourPlan.detectedDepth(hasColours: true, colours: 256, colorTerm: "truecolor") == .trueColour)
        #expect(CursesColourPlan.detectedDepth(hasColours: true, colours: 256, colorTerm: "24bit") == .trueColour)
        #expect(CursesColourPlan.detectedDepth(hasColours: true, colours: 256, colorTerm: nil) == .colours256)
        #expect(CursesColourPlan.detectedDepth(hasColours: true, colours: 8, colorTerm: nil) == .colours8)
        #expect(CursesColourPlan.detectedDepth(hasColours: true, colours: 2, colorTerm: nil) == .monochrome)
    }

    @Test func capabilityLimitsTrueColourToDirectTerminals() {
        #expect(CursesColourPlan.capability(hasColours: true, colours: 1 << 24) == .trueColour)
        #expect(CursesColourPlan.capability(hasColours: true, colours: 256) == .colours256)
        #expect(CursesColourPlan.capability(hasColours: true, colours: 16) == .colours8)
        #expect(CursesColourPlan.shallower(.trueColour, .colours256) == .colours256)
        #expect(CursesColourPlan.shallower(.monochrome, .colours256) == .monochrome)
    }

    @Test func colourPlanAt256() {
        let palette = Palette(entries: [
            .selection: .init(foreground: .named(.black), background: .rgb(255, 0, 0)),
            .title: .init(foreground: .indexed(42), bold: true),
        ])
        let plan = CursesColourPlan(palette: palette, depth: .colours256, directColour: false, defaultColours: true)
        let selection = plan.looks[.selection]!
        #expect(selection.pair >= 1)
        #expect(selection.foreground == 0)
        #expect(selection.background == 196)
        #expect(plan.looks[.title]!.foreground == 42)
        #expect(plan.looks[.title]!.bold)
        #expect(plan.looks[.text]!.foreground == -1)
        #expect(Set(plan.looks.values.map(\.pair)).count == StyleRole.allCases.count)
    }

    @Test func colourPlanWithoutDefaultColoursAndWithDirectColour() {
        let palette = Palette(entries: [.accent: .init(foreground: .rgb(0x12, 0x34, 0x56))])
        let plain = CursesColourPlan(palette: palette, depth: .colours8, directColour: false, defaultColours: false)
        #expect(plain.looks[.text]!.foreground == 7)
        #expect(plain.looks[.text]!.background == 0)
        let direct = CursesColourPlan(palette: palette, depth: .trueColour, directColour: true, defaultColours: true)
        #expect(direct.looks[.accent]!.foreground == 0x123456)
    }

    @Test func monochromeUsesAttributesOnly() {
        let plan = CursesColourPlan(palette: .standard, depth: .monochrome, directColour: false, defaultColours: true)
        #expect(plan.looks.values.allSatisfy { $0.pair == 0 })
        #expect(plan.looks[.selection]!.reverse)
        #expect(plan.looks[.title]!.bold)
        #expect(!plan.looks[.text]!.bold && !plan.looks[.text]!.reverse)
    }
}

@Suite struct CursesColourPlanAttributeTests {
    @Test func reverseAndDimEntriesBecomeAttributes() {
        let palette = Palette(entries: [
            .selection: .init(foreground: .default, reverse: true),
            .muted: .init(foreground: .named(.white), dim: true),
        ])
        let colour = CursesColourPlan(palette: palette, depth: .colours256, directColour: false, defaultColours: true)
        #expect(colour.looks[.selection]!.reverse && !colour.looks[.selection]!.dim)
        #expect(colour.looks[.muted]!.dim && !colour.looks[.muted]!.reverse)
        #expect(!colour.looks[.text]!.reverse && !colour.looks[.text]!.dim)
        let accent = Palette(entries: [.accent: .init(foreground: .default, reverse: true, dim: true)])
        let mono = CursesColourPlan(palette: accent, depth: .monochrome, directColour: false, defaultColours: true)
        #expect(mono.looks[.accent]!.reverse && mono.looks[.accent]!.dim)
    }

    @Test func downsamplingKeepsAttributes() {
        let entry = Palette.Entry(foreground: .rgb(1, 2, 3), bold: true, reverse: true, dim: true)
        let converted = Palette(entries: [.title: entry]).downsampled(to: .colours8)[.title]
        #expect(converted == .init(foreground: .named(.black), bold: true, reverse: true, dim: true))
    }
}
