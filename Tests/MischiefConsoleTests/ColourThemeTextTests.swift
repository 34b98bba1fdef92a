import MischiefConsole
import Testing

@Suite struct ColourThemeTextTests {
    @Test(arguments: [
        ("#ffd75f", Colour.rgb(0xff, 0xd7, 0x5f)),
        ("#FFD75F", .rgb(0xff, 0xd7, 0x5f)),
        ("#000000", .rgb(0, 0, 0)),
        ("0", .indexed(0)),
        ("255", .indexed(255)),
        ("default", .default),
        ("red", .named(.red)),
        ("bright-white", .named(.brightWhite)),
        ("Bright-Black", .named(.brightBlack)),
    ])
    func parses(text: String, colour: Colour) throws {
        #expect(try Colour.parse(themeText: text).get() == colour)
    }

    @Test(arguments: [
        ("#fff", ThemeColourError.Reason.badHex),
        ("#gg0000", .badHex),
        ("256", .badIndex),
        ("-1", .unknownName),
        ("brightred", .unknownName),
        ("", .unknownName),
    ])
    func rejects(text: String, reason: ThemeColourError.Reason) {
        #expect(throws: ThemeColourError(text: text, reason: reason)) { try Colour.parse(themeText: text).get() }
    }

    @Test func suggestsANameSpelledAlike() {
        let error = ThemeColourError(text: "brigth-red", reason: .unknownName, key: "fg")
        #expect(error.description.hasPrefix("unknown colour \"brigth-red\" for 'fg': expected"))
        #expect(error.description.hasSuffix("(did you mean 'bright-red'?)"))
    }

    @Test func writesWhatItReads() throws {
        let colours: [Colour] =
            [.default, .rgb(0x0a, 0xb0, 0xff), .indexed(7)] + Colour.Name.allCases.map { .named($0) }
        for colour in colours {
            #expect(try Colour.parse(themeText: colour.themeText).get() == colour)
        }
        #expect(Colour.rgb(0x0a, 0xb0, 0xff).themeText == "#0ab0ff")
        #expect(Colour.named(.brightCyan).themeText == "bright-cyan")
        #expect(Colour.themeNames.count == 17)
    }
}
