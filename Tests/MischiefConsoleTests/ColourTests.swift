import MischiefConsole
import Testing

@Suite struct ColourTests {
    @Test(arguments: [
        (UInt8(0), UInt8(0), UInt8(0), UInt8(16)),
        (255, 255, 255, 231),
        (255, 0, 0, 196),
        (0, 255, 0, 46),
        (0, 0, 255, 21),
        (95, 135, 175, 67),
        (128, 128, 128, 244),  // grey ramp beats the cube
        (238, 238, 238, 255),
        (250, 128, 114, 209),  // salmon
    ])
    func rgbTo256(r: UInt8, g: UInt8, b: UInt8, index: UInt8) {
        #expect(Colour.rgb(r, g, b).downsampled(to: .colours256) == .indexed(index))
    }

    @Test(arguments: [
        (UInt8(0), UInt8(0), UInt8(0), Colour.Name.black),
        (255, 0, 0, .red),
        (0, 200, 0, .green),
        (255, 128, 0, .yellow),
        (20, 20, 200, .blue),
        (200, 0, 200, .magenta),
        (0, 200, 200, .cyan),
        (200, 200, 200, .white),
        (60, 60, 60, .black),
    ])
    func rgbTo8(r: UInt8, g: UInt8, b: UInt8, name: Colour.Name) {
        #expect(Colour.rgb(r, g, b).downsampled(to: .colours8) == .named(name))
    }

    @Test func otherColoursAndDepths() {
        #expect(Colour.rgb(1, 2, 3).downsampled(to: .trueColour) == .rgb(1, 2, 3))
        #expect(Colour.rgb(1, 2, 3).downsampled(to: .monochrome) == .default)
        #expect(Colour.default.downsampled(to: .colours8) == .default)
        #expect(Colour.indexed(42).downsampled(to: .colours256) == .indexed(42))
        #expect(Colour.named(.brightRed).downsampled(to: .colours256) == .named(.brightRed))
        #expect(Colour.named(.brightRed).downsampled(to: .colours8) == .named(.red))
        #expect(Colour.indexed(12).downsampled(to: .colours8) == .named(.blue))
        #expect(Colour.indexed(196).downsampled(to: .colours8) == .named(.red))
        #expect(Colour.indexed(250).downsampled(to: .colours8) == .named(.white))
    }

    @Test func paletteDownsamplesEveryEntry() {
        let palette = Palette.standard.downsampled(to: .colours8)
        for role in StyleRole.allCases {
            for colour in [palette[role].foreground, palette[role].background] {
                switch colour {
                case .default: break
                case .named(let name): #expect(name.rawValue < 8)
                default: Issue.record("\(role) has \(colour) at 8 colours")
                }
            }
        }
        #expect(Palette.standard[.title].bold)
    }
}
