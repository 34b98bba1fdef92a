extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }

    /// The string followed by spaces up to `columns` display columns (unchanged when already that wide).
    func padding(to columns: Int) -> String {
        self + String(repeating: " ", count: max(0, columns - DisplayWidth.of(self)))
    }
}
