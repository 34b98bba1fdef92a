/// A terminal colour.
public enum Colour: Hashable, Sendable {
    /// The terminal's own default foreground or background.
    case `default`
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)
    /// An index into the xterm 256-colour palette.
    case indexed(UInt8)
    /// One of the 16 ANSI colours.
    case named(Name)

    /// The 16 ANSI colours; raw values are their palette indices.
    public enum Name: UInt8, Hashable, Sendable, CaseIterable {
        case black, red, green, yellow, blue, magenta, cyan, white
        case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite

        /// The non-bright colour of the same hue.
        public var basic: Name { Name(rawValue: rawValue % 8)! }
    }
}

extension Colour {
    /// This colour as the nearest colour a terminal of `depth` can show.
    ///
    /// - trueColour: unchanged.
    /// - colours256: RGB becomes the nearest xterm index in the 6×6×6 cube (16–231) or grey ramp (232–255);
    ///   indexed and named colours are unchanged.
    /// - colours8: everything becomes one of the 8 basic named colours (bright variants lose their brightness;
    ///   RGB and indices ≥ 16 go to the nearest basic colour by xterm's RGB values).
    /// - monochrome: ``default``.
    public func downsampled(to depth: ColourDepth) -> Colour {
        switch (depth, self) {
        case (.trueColour, _), (_, .default):
            return self
        case (.monochrome, _):
            return .default
        case (.colours256, .rgb(let r, let g, let b)):
            return .indexed(Colour.nearest256(r, g, b))
        case (.colours256, _):
            return self
        case (.colours8, .named(let name)):
            return .named(name.basic)
        case (.colours8, .indexed(let index)) where index < 16:
            return .named(Colour.Name(rawValue: index)!.basic)
        case (.colours8, .indexed(let index)):
            return .named(Colour.nearestBasic(Colour.rgbOfIndex(index)))
        case (.colours8, .rgb(let r, let g, let b)):
            return .named(Colour.nearestBasic(r, g, b))
        }
    }

    /// The six channel levels of the xterm colour cube.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// xterm's RGB values of the 8 basic colours.
    static let basicRGB: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229),
    ]

    /// xterm's RGB values of the 8 bright colours.
    static let brightRGB: [(Int, Int, Int)] = [
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]

    /// The nearest xterm-256 index (cube or grey ramp) to an RGB colour.
    public static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let rgb = (Int(r), Int(g), Int(b))
        func nearestLevel(_ value: Int) -> Int {
            var best = 0
            for (index, level) in cubeLevels.enumerated() where abs(level - value) < abs(cubeLevels[best] - value) {
                best = index
            }
            return best
        }
        let (ri, gi, bi) = (nearestLevel(rgb.0), nearestLevel(rgb.1), nearestLevel(rgb.2))
        let cube = (cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
        let cubeIndex = 16 + 36 * ri + 6 * gi + bi
        let average = (rgb.0 + rgb.1 + rgb.2) / 3
        let greyStep = min(23, max(0, (average - 3) / 10))
        let greyValue = 8 + 10 * greyStep
        let grey = (greyValue, greyValue, greyValue)
        return distance(rgb, grey) < distance(rgb, cube) ? UInt8(232 + greyStep) : UInt8(cubeIndex)
    }

    /// The nearest of the 8 basic colours to an RGB colour.
    public static func nearestBasic(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Colour.Name {
        nearestBasic((Int(r), Int(g), Int(b)))
    }

    /// The nearest of the 8 basic colours to an RGB triple.
    public static func nearestBasic(_ rgb: (Int, Int, Int)) -> Colour.Name {
        var best = 0
        for index in 1..<basicRGB.count where distance(rgb, basicRGB[index]) < distance(rgb, basicRGB[best]) {
            best = index
        }
        return Colour.Name(rawValue: UInt8(best))!
    }

    /// The RGB value xterm uses for a palette index.
    public static func rgbOfIndex(_ index: UInt8) -> (Int, Int, Int) {
        switch index {
        case 0..<8:
            return basicRGB[Int(index)]
        case 8..<16:
            return brightRGB[Int(index) - 8]
        case 16..<232:
            let value = Int(index) - 16
            return (cubeLevels[value / 36], cubeLevels[(value / 6) % 6], cubeLevels[value % 6])
        default:
            let grey = 8 + 10 * (Int(index) - 232)
            return (grey, grey, grey)
        }
    }

    /// Squared Euclidean distance between two RGB triples.
    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return dr * dr + dg * dg + db * db
    }
}
