/// A term checked against its action's signature, with every parameter's value.
///
/// Values are already converted to the parameter's kind: a word given for a string parameter is a `.string`, an
/// integer given for a number parameter is a `.number`, and a word or string given for a spec parameter is a
/// `.spec`.
public struct BoundAction: Hashable, Sendable {
    /// The signature the term was bound to.
    public var signature: ActionSignature
    /// The term as written.
    public var term: Spec.Term
    /// Every parameter's value, given or default (flags default to `false`).
    public var values: [String: Spec.Value]

    /// Creates a bound action; ``Spec/Term/bind(to:seam:)`` is the usual way.
    public init(signature: ActionSignature, term: Spec.Term, values: [String: Spec.Value]) {
        self.signature = signature
        self.term = term
        self.values = values
    }

    /// The value of a parameter.
    public func value(_ name: String) -> Spec.Value? {
        values[name]
    }

    /// A string parameter's value.
    public func string(_ name: String) -> String? {
        guard case .string(let text)? = values[name] else {
            return nil
        }
        return text
    }

    /// An integer parameter's value.
    public func integer(_ name: String) -> Int? {
        guard case .integer(let value)? = values[name] else {
            return nil
        }
        return value
    }

    /// A number parameter's value; integers are returned as numbers.
    public func number(_ name: String) -> Double? {
        switch values[name] {
        case .number(let value)?: return value
        case .integer(let value)?: return Double(value)
        default: return nil
        }
    }

    /// A percentage parameter's value in percent (`30%` is 30). Only `.percent` values qualify: binding rejects
    /// plain numbers for percentage parameters, so `0.3` is never mistaken for 30%.
    public func percent(_ name: String) -> Double? {
        guard case .percent(let value)? = values[name] else {
            return nil
        }
        return value
    }

    /// A duration parameter's value.
    public func duration(_ name: String) -> Duration? {
        guard case .duration(let value)? = values[name] else {
            return nil
        }
        return value.duration
    }

    /// A date parameter's value.
    public func date(_ name: String) -> SpecDate? {
        guard case .date(let value)? = values[name] else {
            return nil
        }
        return value
    }

    /// A flag's value; false when absent.
    public func flag(_ name: String) -> Bool {
        values[name] == .bool(true)
    }

    /// A spec parameter's value.
    public func spec(_ name: String) -> Spec? {
        guard case .spec(let value)? = values[name] else {
            return nil
        }
        return value
    }

    /// A word parameter's value.
    public func word(_ name: String) -> String? {
        guard case .word(let value)? = values[name] else {
            return nil
        }
        return value
    }

    /// A parameter's value as JSON text, when it has one.
    public func json(_ name: String) -> String? {
        values[name]?.jsonText
    }

    /// The term rewritten in canonical form.
    ///
    /// Parameters appear in signature order; values equal to their default are omitted; the first parameter is
    /// positional when given, the others are `key: value`; true flags print as bare words. Whole numbers print
    /// without a fraction and single-action specs as plain words. Probability and count are kept.
    public var canonicalTerm: Spec.Term {
        let flags = Set(signature.parameters.filter { $0.kind == .flag }.map(\.name))
        var arguments: [Spec.Argument] = []
        for (position, parameter) in signature.parameters.enumerated() {
            guard var value = values[parameter.name], value != Self.defaultValue(of: parameter) else {
                continue
            }
            if case .number(let number) = value, number == number.rounded(), number.magnitude < 9.2e18 {
                value = .integer(Int(number))
            }
            if case .spec(let spec) = value, spec.isBareAction, !flags.contains(spec.alternatives[0].terms[0].action) {
                value = .word(spec.alternatives[0].terms[0].action)
            }
            if parameter.kind == .flag, value == .bool(true) {
                arguments.append(Spec.Argument(value: .word(parameter.name), location: term.location))
            } else if position == 0, parameter.kind != .flag, !Self.isWord(value, in: flags) {
                arguments.append(Spec.Argument(value: value, location: term.location))
            } else {
                arguments.append(Spec.Argument(label: parameter.name, value: value, location: term.location))
            }
        }
        var canonical = term
        canonical.arguments = arguments
        return canonical
    }

    /// The value a parameter has when omitted, converted to its kind when possible.
    static func defaultValue(of parameter: ActionSignature.Parameter) -> Spec.Value? {
        guard let value = parameter.defaultValue else {
            return parameter.kind == .flag ? .bool(false) : nil
        }
        return Spec.Term.convert(value, to: parameter.kind) ?? value
    }

    private static func isWord(_ value: Spec.Value, in words: Set<String>) -> Bool {
        if case .word(let word) = value {
            return words.contains(word)
        }
        return false
    }
}
