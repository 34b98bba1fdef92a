extension ColourDepth {
    /// The depth a terminal claims through its environment, for output that does not go through terminfo.
    ///
    /// `COLORTERM` of `truecolor` or `24bit` → ``trueColour``; else `TERM` containing `256color` →
    /// ``colours256``; else ``colours8``.
    public static func detected(environment: [String: String]) -> ColourDepth {
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColour }
        if (environment["TERM"] ?? "").contains("256color") { return .colours256 }
        return .colours8
    }
}
