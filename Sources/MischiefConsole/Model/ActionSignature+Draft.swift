import Foundation
import Mischief

extension ActionSignature {
    /// A spec text to start from for this action, as the action picker prefills it and Space applies it.
    public struct Draft: Sendable, Equatable {
        /// The text, such as `shift(1d)` or `city("")`.
        public var text: String
        /// Where the cursor goes (in characters): the first blank to fill in, else the end.
        public var cursor: Int
        /// False when a required argument was left blank for the user to fill in.
        public var isComplete: Bool

        /// Creates a draft.
        public init(text: String, cursor: Int, isComplete: Bool) {
            self.text = text
            self.cursor = cursor
            self.isComplete = isComplete
        }
    }

    /// The action written with its main parameter's value (its default, else one step) and, for required
    /// parameters without a default, a value that applies as it is: `now` for a date, else the example the
    /// parameter's summary gives (`e.g. "São Paulo"`, `such as address.city`). A blank is left, and the draft is
    /// incomplete, only when there is no example or the value is JSON (whose type depends on the seam). A main
    /// parameter whose default is null is left out. Other parameters keep their defaults and are left out.
    ///
    /// `shift` with a step of 1d gives `shift(1d)`; `freeze` gives `freeze(2026-11-24T08:00:00Z)` at that `now`;
    /// `throw` gives `throw`; `city` gives `city("São Paulo")`.
    ///
    /// - Parameter now: the target's time, for dates (the wall clock's when nil).
    public func draft(now: Date? = nil) -> Draft {
        var arguments: [String] = []
        var blank: Int?
        var prefix = name + "("
        for (position, parameter) in parameters.enumerated() where parameter.kind != .flag {
            var value: String
            var isBlank = false
            if parameter.kind == .date, parameter.defaultValue == nil {
                value = Self.specDate(now ?? Date())
            } else if parameter.step != nil {
                // A main parameter whose default is null is left out: written as null it would not apply.
                if parameter.defaultValue == .null { continue }
                value = (parameter.defaultValue ?? parameter.step)?.description ?? ""
            } else if parameter.defaultValue != nil {
                continue
            } else if parameter.takesExample, let example = parameter.example {
                // A JSON value depends on the seam's type, so no one example fits every seam: it stays blank.
                value = example
            } else {
                value = parameter.kind == .string ? "\"\"" : ""
                isBlank = true
            }
            let label = position == 0 ? "" : parameter.name + ": "
            if !arguments.isEmpty {
                prefix += ", "
            }
            if isBlank, blank == nil {
                blank = prefix.count + label.count + (value.isEmpty ? 0 : 1)
            }
            value = label + value
            prefix += value
            arguments.append(value)
        }
        guard !arguments.isEmpty else {
            return Draft(text: name, cursor: name.count, isComplete: true)
        }
        let text = name + "(" + arguments.joined(separator: ", ") + ")"
        return Draft(text: text, cursor: blank ?? text.count, isComplete: blank == nil)
    }

    /// The draft at the wall clock's time; see ``draft(now:)``.
    public var draft: Draft { draft() }

    /// A date as spec text: ISO 8601 in UTC, to the second (`2026-11-24T08:00:00Z`).
    static func specDate(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(time / 3_600)):\(two(time % 3_600 / 60)):\(two(time % 60))Z"
    }
}

extension ActionSignature.Parameter {
    /// How the console describes the kind: `duration`, `one of fast, slow`.
    public var kindText: String {
        if case .word(let words) = kind, !words.isEmpty { return "one of " + words.joined(separator: ", ") }
        return kind.name
    }

    /// Whether one example from the summary fits every seam: not for JSON, spec or any value, whose type depends
    /// on the seam.
    var takesExample: Bool {
        switch kind {
        case .json, .any, .spec: false
        default: true
        }
    }

    /// The example value its summary gives, as spec text for its kind: the text after `e.g.` or `such as`, else
    /// the first item after the first `: `, up to a comma, semicolon or ` or `; strings are quoted. Nil when the
    /// summary gives none.
    public var example: String? {
        var text: Substring?
        for marker in ["e.g. ", "such as "] where text == nil {
            if let range = summary.range(of: marker) { text = summary[range.upperBound...] }
        }
        if text == nil, let range = summary.range(of: ": ") { text = summary[range.upperBound...] }
        guard var example = text else { return nil }
        for stop in [", ", "; ", " or "] {
            if let range = example.range(of: stop) { example = example[..<range.lowerBound] }
        }
        let value = example.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { return nil }
        if kind == .string, !value.hasPrefix("\"") {
            return "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return value
    }
}
