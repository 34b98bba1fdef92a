extension Spec {
    /// A value written as an argument.
    ///
    /// A decimal literal whose value is whole and fits in `Int` (`2.0`, `1e3`) reads as `.integer`, so every value
    /// prints its shortest text and reads back equal.
    public indirect enum Value: Hashable, Sendable, CustomStringConvertible {
        /// A quoted string, escapes resolved.
        case string(String)
        /// A whole number.
        case integer(Int)
        /// A number with a fraction (or too large for `Int`).
        case number(Double)
        /// A percentage such as `30%`, stored as 30.
        case percent(Double)
        /// A duration such as `250ms` or `-3h`.
        case duration(SpecDuration)
        /// An ISO 8601 date or date-time.
        case date(SpecDate)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null
        /// A bare identifier not followed by `(`, such as `Tokyo` or `loop`.
        case word(String)
        /// A JSON-style array `[1, 2]`.
        case array([Value])
        /// A JSON-style object `{"a": 1}`, keys in source order.
        case object([Member])
        /// A nested spec such as `return(1)`, `2*throw("x")` or `a -> b`.
        case spec(Spec)

        /// One key and value of an object.
        public struct Member: Hashable, Sendable {
            /// The key.
            public var key: String
            /// The value.
            public var value: Value

            /// Creates a member.
            public init(_ key: String, _ value: Value) {
                self.key = key
                self.value = value
            }
        }

        /// The canonical text of the value.
        ///
        /// A nested spec that is a single bare action prints with empty parentheses (`off()`) so that it reads back
        /// as a spec rather than a word.
        public var description: String {
            switch self {
            case .string(let text):
                return SpecFormat.quoted(text)
            case .integer(let value):
                return String(value)
            case .number(let value):
                return SpecFormat.number(value)
            case .percent(let value):
                return SpecFormat.number(value) + "%"
            case .duration(let duration):
                return duration.description
            case .date(let date):
                return date.description
            case .bool(let value):
                return value ? "true" : "false"
            case .null:
                return "null"
            case .word(let word):
                return word
            case .array(let values):
                return "[" + values.map(\.description).joined(separator: ", ") + "]"
            case .object(let members):
                let pairs = members.map { SpecFormat.quoted($0.key) + ": " + $0.value.description }
                return "{" + pairs.joined(separator: ", ") + "}"
            case .spec(let spec):
                return spec.isBareAction ? spec.description + "()" : spec.description
            }
        }

        /// The value as JSON text, or nil when it has no JSON form (percentages, durations, dates, words, specs,
        /// non-finite numbers, or arrays and objects containing them).
        public var jsonText: String? {
            switch self {
            case .string(let text):
                return SpecFormat.quoted(text)
            case .integer(let value):
                return String(value)
            case .number(let value):
                return value.isFinite ? SpecFormat.number(value) : nil
            case .bool(let value):
                return value ? "true" : "false"
            case .null:
                return "null"
            case .array(let values):
                var parts: [String] = []
                for value in values {
                    guard let json = value.jsonText else {
                        return nil
                    }
                    parts.append(json)
                }
                return "[" + parts.joined(separator: ", ") + "]"
            case .object(let members):
                var parts: [String] = []
                for member in members {
                    guard let json = member.value.jsonText else {
                        return nil
                    }
                    parts.append(SpecFormat.quoted(member.key) + ": " + json)
                }
                return "{" + parts.joined(separator: ", ") + "}"
            case .percent, .duration, .date, .word, .spec:
                return nil
            }
        }

        /// A short description for messages, e.g. `string "x"` or `duration 1d`.
        var kindAndText: String {
            switch self {
            case .string: return "string \(description)"
            case .integer: return "integer \(description)"
            case .number: return "number \(description)"
            case .percent: return "percentage \(description)"
            case .duration: return "duration \(description)"
            case .date: return "date \(description)"
            case .bool: return "boolean \(description)"
            case .null: return "null"
            case .word: return "word '\(description)'"
            case .array: return "array \(description)"
            case .object: return "object \(description)"
            case .spec(let spec): return "spec '\(spec.description)'"
            }
        }
    }
}
