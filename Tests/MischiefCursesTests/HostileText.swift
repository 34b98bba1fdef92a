import Mischief

/// Text a hostile or careless target publishes: everything that has broken terminal programs, mixed at random.
struct HostileText {
    /// Pieces that each break something: clusters that disagree on width, invisible and direction-changing
    /// characters, controls and escape sequences, marks without a base.
    static let pieces: [String] = [
        "🇵🇹", "🇵", "🇯🇵🇵", "👩‍👩‍👧‍👦", "👨🏽‍🤝‍👨🏿", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👍🏽", "🏽", "1️⃣", "❤\u{FE0F}", "☺\u{FE0E}", "\u{FE0F}",
        "\u{200D}", "🐙🔥🙈", "e" + String(repeating: "\u{301}\u{302}\u{303}", count: 12), "\u{301}", "\u{20DD}",
        "Z̴̡̛̗̭͎̦̩̥̈́͊̌͂a̸̡̧̛̗̮̜̟̠̟͛l̵̨̢̩͉̱̙̖g̷̛̦̝̩̈́o̶̢̡̖̮̍", "東京都", "ｶﾀｶﾅ", "한국어", "\u{1100}\u{1161}\u{11A8}", "\u{1161}",
        "\u{200B}", "\u{200C}", "\u{2060}", "\u{FEFF}", "\u{AD}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}",
        "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{061C}", "\u{0600}5",
        "\u{1B}", "\u{1B}[31m", "\u{1B}[2J\u{1B}[H", "\u{1B}]0;pwned\u{7}", "\u{1B}P+q\u{1B}\\", "\u{9B}1m", "\u{85}",
        "\u{7F}", "\u{0}", "\u{7}", "\u{8}", "\t", "\n", "\r", "\r\n", "\u{2028}", "\u{2029}", "\u{378}", "\u{E000}",
        "\u{FFFF}", "\u{FFFD}", "\u{1D400}\u{1D401}", "मनीष क्षि", "ก่ี", "مرحبا بالعالم", "עברית", "\u{202E}مرحبا עברית",
        "%@ {0} %1$s", "\"quoted\" 'and' \\back\\", "   ", "",
    ]

    var random: SeededGenerator

    /// A generator of its own seed.
    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// One hostile string: up to eight pieces, plain words and very long words, in any order.
    mutating func next() -> String {
        var text = ""
        for _ in 0..<random.index(below: 9) {
            switch random.index(below: 10) {
            case 0: text += word(length: 40 + random.index(below: 400))
            case 1, 2: text += word(length: 1 + random.index(below: 8)) + " "
            default: text += Self.pieces[random.index(below: Self.pieces.count)]
            }
        }
        return text
    }

    /// `count` hostile strings.
    mutating func next(_ count: Int) -> [String] { (0..<count).map { _ in next() } }

    /// An optional hostile string.
    mutating func maybe() -> String? { random.index(below: 3) == 0 ? nil : next() }

    /// A number up to `limit`, to size lists.
    mutating func count(below limit: Int) -> Int { random.index(below: limit) }

    /// A word of `length` letters (and the odd accented one), cut from ``letters``.
    private mutating func word(length: Int) -> String {
        let start = random.index(below: Self.letters.count - length)
        return String(Self.letters[start..<start + length])
    }

    /// Random letters to cut words from.
    static let letters: [Character] = {
        var random = SeededGenerator(seed: 26)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzéßø")
        return (0..<1_000).map { _ in alphabet[random.index(below: alphabet.count)] }
    }()
}
