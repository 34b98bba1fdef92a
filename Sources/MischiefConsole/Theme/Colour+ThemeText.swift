import Foundation

extension Colour {
    /// Reads a colour as theme files write it: `"#rrggbb"`, an xterm palette index `0`–`255`, or a name
    /// (`default`, `black` … `white`, `bright-black` … `bright-white`).
    ///
    /// - Returns: the colour, or a message saying what is wrong and what was expected.
    public static func parse(themeText text: String) -> Result<Colour, ThemeColourError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#") {
            let digits = trimmed.dropFirst()
            guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
                return .failure(ThemeColourError(text: text, reason: .badHex))
            }
            return .success(.rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)))
        }
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let index = UInt8(trimmed) else { return .failure(ThemeColourError(text: text, reason: .badIndex)) }
            return .success(.indexed(index))
        }
        let lowered = trimmed.lowercased()
        if lowered == "default" { return .success(.default) }
        if let name = Name.allCases.first(where: { $0.themeText == lowered }) { return .success(.named(name)) }
        return .failure(ThemeColourError(text: text, reason: .unknownName))
    }

    /// How theme files write this colour: `#rrggbb`, `245`, `bright-red` or `default`.
    public var themeText: String {
        switch self {
        case .default:
            return "default"
        case .rgb(let r, let g, let b):
            return "#" + [r, g, b].map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        case .indexed(let index):
            return String(index)
        case .named(let name):
            return name.themeText
        }
    }

    /// Every colour name theme files accept, `default` first.
    public static let themeNames: [String] = ["default"] + Name.allCases.map(\.themeText)
}

extension Colour.Name {
    /// The name theme files use: `red`, `bright-red`.
    public var themeText: String {
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        let basic = names[Int(rawValue % 8)]
        return rawValue < 8 ? basic : "bright-" + basic
    }
}
