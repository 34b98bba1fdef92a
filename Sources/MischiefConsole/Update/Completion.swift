import Mischief

/// Tab completion for what is typed: a spec in the action picker (action names, parameter names, the values a
/// parameter suggests in its signature, as the target sent it, such as a location's city names; durations' units) and a command line in the palette (commands, seams, actions, profile and theme names).
enum Completion {
    /// What Tab does to a text: the text before the cursor after it, and the candidates it chose among (shown
    /// when there are several).
    struct Result: Sendable, Equatable {
        /// The text before the cursor, completed.
        var text: String
        /// Every candidate that fits what was typed, when there are several.
        var options: [String]
    }

    /// The units a duration takes after its number.
    static let durationUnits = ["ms", "s", "m", "h", "d", "w"]

    /// `typed` completed among `candidates` that start with it (ignoring case): the one there is, or what they all
    /// start with; nil when none fits.
    static func extend(_ typed: String, among candidates: [String]) -> Result? {
        let lower = typed.lowercased()
        var seen = Set<String>()
        let fitting = candidates.filter { $0.lowercased().hasPrefix(lower) && seen.insert($0).inserted }
        guard let first = fitting.first else { return nil }
        guard fitting.count > 1 else { return Result(text: first, options: []) }
        var common = Array(first)
        for other in fitting.dropFirst() {
            let characters = Array(other)
            var length = 0
            while length < min(common.count, characters.count),
                String(common[length]).lowercased() == String(characters[length]).lowercased()
            {
                length += 1
            }
            common = Array(common.prefix(length))
        }
        let text = common.count > typed.count ? String(common) : typed
        return Result(text: text, options: fitting)
    }

    /// Completes the spec `before` (the text before the cursor) for a seam with `actions`.
    static func spec(_ before: String, actions: [ActionSignature]) -> Result? {
        let scalars = Array(before)
        // Inside a string: the values the parameter's signature suggests (`city`'s city names).
        if let quote = openQuote(in: scalars) {
            let typed = String(scalars[(quote + 1)...])
            let head = String(scalars[..<quote])
            guard let parameter = enclosingParameter(head, actions: actions), !parameter.suggestions.isEmpty else {
                return nil
            }
            guard let done = extend(typed, among: parameter.suggestions) else { return nil }
            let closed = done.options.isEmpty ? done.text + "\"" : done.text
            return Result(text: head + "\"" + closed, options: done.options)
        }
        var start = scalars.count
        while start > 0, isWordCharacter(scalars[start - 1]) { start -= 1 }
        let word = String(scalars[start...])
        let head = String(scalars[..<start])
        // A number followed by letters (or nothing yet): a duration's unit.
        let digits = word.prefix(while: \.isNumber)
        if !digits.isEmpty, word.dropFirst(digits.count).allSatisfy(\.isLetter) {
            let unit = String(word.dropFirst(digits.count))
            guard let done = extend(unit, among: durationUnits) else { return nil }
            return Result(text: head + digits + done.text, options: done.options.map { digits + $0 })
        }
        // After `(` or `,` inside an action's parentheses: its parameter names, then `: `.
        let before = head.last(where: { $0 != " " })
        if before == "(" || before == ",", let action = enclosingAction(head, actions: actions) {
            let names = action.parameters.map(\.name)
            guard let done = extend(word, among: names) else { return nil }
            return Result(text: head + done.text + (done.options.isEmpty ? ": " : ""), options: done.options)
        }
        guard let done = extend(word, among: actions.map(\.name)) else { return nil }
        let takesArguments = actions.first { $0.name == done.text }.map { !$0.parameters.isEmpty } ?? false
        return Result(
            text: head + done.text + (done.options.isEmpty && takesArguments ? "(" : ""), options: done.options)
    }

    /// A command line in the palette, as words: completes the last word; nil when there is nothing to add.
    static func complete(line words: [String], in state: ConsoleState) -> String? {
        guard let verb = words.first?.lowercased() else { return nil }
        let seams = state.data?.seams ?? []
        let head = words.dropLast().joined(separator: " ")
        let prefix = head.isEmpty ? "" : head + " "
        func finish(_ result: Result?, space: Bool = true) -> String? {
            guard let result else { return nil }
            return prefix + result.text + (result.options.isEmpty && space ? " " : "")
        }
        if words.count == 1 { return finish(extend(words[0], among: ConsoleLine.verbs)) }
        switch verb {
        case _ where words.count == 2 && ["apply", "revert", "release", "pause", "reset", "ttl"].contains(verb):
            let extra = ["revert", "reset"].contains(verb) ? ["all"] : []
            return finish(extend(words[1], among: seams.map(\.id.rawValue) + extra))
        case "apply":
            guard let seam = seams.first(where: { $0.id.rawValue == words[1] }) else { return nil }
            let specHead = "apply " + words[1] + " "
            let typed = words.dropFirst(2).joined(separator: " ")
            return spec(typed, actions: seam.actions).map { specHead + $0.text }
        case "profile":
            let name = words.dropFirst().joined(separator: " ")
            return extend(name, among: (state.data?.profiles ?? []).map(\.profile.name)).map {
                "profile " + $0.text + ($0.options.isEmpty ? " " : "")
            }
        case "theme":
            return finish(extend(words.dropFirst().joined(separator: " "), among: state.themeNames), space: false)
                .map { "theme " + $0.dropFirst(prefix.count) }
        case "save" where words.count == 2:
            return finish(extend(words[1], among: ["recording", "profile"]))
        default:
            return nil
        }
    }

    /// The index of an unclosed `"` in `characters` (escapes with `\` skipped), or nil.
    private static func openQuote(in characters: [Character]) -> Int? {
        var open: Int?
        var index = 0
        while index < characters.count {
            switch characters[index] {
            case "\\" where open != nil: index += 1
            case "\"": open = open == nil ? index : nil
            default: break
            }
            index += 1
        }
        return open
    }

    /// The action whose parentheses are open at the end of `text`.
    private static func enclosingAction(_ text: String, actions: [ActionSignature]) -> ActionSignature? {
        let characters = Array(text)
        var depth = 0
        var index = characters.count - 1
        while index >= 0 {
            switch characters[index] {
            case ")": depth += 1
            case "(" where depth > 0: depth -= 1
            case "(":
                var start = index
                while start > 0, isWordCharacter(characters[start - 1]) { start -= 1 }
                let name = String(characters[start..<index])
                return actions.first { $0.name == name }
            default: break
            }
            index -= 1
        }
        return nil
    }

    /// The parameter whose value starts at the end of `text`: the one named just before it (`name: `), else the one
    /// at its position among the enclosing action's arguments.
    private static func enclosingParameter(_ text: String, actions: [ActionSignature]) -> ActionSignature.Parameter? {
        guard let action = enclosingAction(text, actions: actions) else { return nil }
        if let named = text.firstMatch(of: /(\w+)\s*:\s*$/) {
            return action.parameters.first { $0.name == named.output.1 }
        }
        let characters = Array(text)
        var (depth, commas, inString) = (0, 0, false)
        var index = characters.count - 1
        scan: while index >= 0 {
            let character = characters[index]
            if character == "\"" {
                inString.toggle()
            } else if !inString {
                switch character {
                case ")": depth += 1
                case "(" where depth > 0: depth -= 1
                case "(": break scan
                case "," where depth == 0: commas += 1
                default: break
                }
            }
            index -= 1
        }
        return commas < action.parameters.count ? action.parameters[commas] : nil
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-"
    }
}
