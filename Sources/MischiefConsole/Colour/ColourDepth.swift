/// How many colours a terminal can show.
public enum ColourDepth: Hashable, Sendable, CaseIterable {
    /// 24-bit RGB.
    case trueColour
    /// The xterm 256-colour palette.
    case colours256
    /// The 8 basic ANSI colours.
    case colours8
    /// No colours; roles are told apart by attributes only.
    case monochrome
}
