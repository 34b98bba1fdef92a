extension Spec.Term {
    /// Checks the term against a seam's action signatures and collects every parameter's value.
    ///
    /// Positional arguments fill the non-flag parameters in order; `key: value` arguments name any parameter; a
    /// bare word equal to a flag's name sets that flag. Omitted parameters take their defaults.
    ///
    /// - Parameters:
    ///   - signatures: The actions the seam offers.
    ///   - seam: the seam's id, used in messages (`clock.now`).
    /// - Throws: a `SpecError` pointing at the action or argument at fault.
    public func bind(to signatures: [ActionSignature], seam: String) throws(SpecError) -> BoundAction {
        guard let signature = signatures.first(where: { $0.name == action }) else {
            let names = signatures.map(\.name)
            var message = "unknown action '\(action)' for \(seam)"
            if let match = suggestion(for: action, among: names) {
                message += "; did you mean '\(match)'?"
            } else if names.isEmpty {
                message += "; it has no actions"
            } else {
                message += "; available: " + names.joined(separator: ", ")
            }
            throw bindingError(message, at: actionLocation.start)
        }
        let parameters = signature.parameters
        let positional = parameters.filter { $0.kind != .flag }
        var nextPositional = 0
        var values: [String: Spec.Value] = [:]
        for argument in arguments {
            let parameter: ActionSignature.Parameter
            var value = argument.value
            if let label = argument.label {
                guard let named = parameters.first(where: { $0.name == label }) else {
                    var message = "unknown argument '\(label)' for '\(action)'"
                    if let match = suggestion(for: label, among: parameters.map(\.name)) {
                        message += "; did you mean '\(match)'?"
                    } else if parameters.isEmpty {
                        message += "; it takes no arguments"
                    } else {
                        message += "; available: " + parameters.map(\.name).joined(separator: ", ")
                    }
                    throw bindingError(message, at: argument.location.start)
                }
                parameter = named
            } else if case .word(let word) = value,
                let flag = parameters.first(where: { $0.kind == .flag && $0.name == word })
            {
                parameter = flag
                value = .bool(true)
            } else {
                guard nextPositional < positional.count else {
                    let takes = positional.isEmpty ? "none" : "\(positional.count)"
                    throw bindingError(
                        "too many arguments for '\(action)': it takes \(takes)",
                        at: argument.location.start)
                }
                parameter = positional[nextPositional]
                nextPositional += 1
            }
            guard values[parameter.name] == nil else {
                throw bindingError("'\(parameter.name)' is given twice", at: argument.location.start)
            }
            values[parameter.name] = try converted(value, for: parameter, of: signature, at: argument)
        }
        for parameter in parameters where values[parameter.name] == nil {
            guard let value = BoundAction.defaultValue(of: parameter) else {
                throw bindingError("missing argument '\(parameter.name)' for '\(action)'", at: actionLocation.start)
            }
            values[parameter.name] = value
        }
        return BoundAction(signature: signature, term: self, values: values)
    }

    /// The term with its main parameter moved by `steps` times the parameter's step, in canonical form.
    ///
    /// Durations, integers and numbers move freely; percentages are clamped to 0...100. Returns nil when the action
    /// is unknown, has no main parameter, does not bind, or the value cannot move by the step (e.g. overflow).
    public func nudged(by steps: Int, signatures: [ActionSignature]) -> Spec.Term? {
        guard let signature = signatures.first(where: { $0.name == action }),
            let parameter = signature.mainParameter, let step = parameter.step,
            var bound = try? bind(to: signatures, seam: ""), let value = bound.values[parameter.name]
        else {
            return nil
        }
        let moved: Spec.Value
        switch (value, step) {
        case (.duration(let duration), .duration(let stepDuration)):
            let (delta, overflow) = stepDuration.nanoseconds.multipliedReportingOverflow(by: Int64(steps))
            let (total, overflow2) = duration.nanoseconds.addingReportingOverflow(delta)
            guard !overflow, !overflow2 else {
                return nil
            }
            moved = .duration(SpecDuration(nanoseconds: total))
        case (.integer(let integer), .integer(let stepInteger)):
            let (delta, overflow) = stepInteger.multipliedReportingOverflow(by: steps)
            let (total, overflow2) = integer.addingReportingOverflow(delta)
            guard !overflow, !overflow2 else {
                return nil
            }
            moved = .integer(total)
        case (.date(let date), .duration(let stepDuration)):
            // Whole seconds only: a date steps by days or hours; years 0000–9999 are what specs can write.
            let (delta, overflow) = (stepDuration.nanoseconds / 1_000_000_000).multipliedReportingOverflow(
                by: Int64(steps))
            let (seconds, overflow2) = date.seconds.addingReportingOverflow(delta)
            guard !overflow, !overflow2, (-62_167_219_200...253_402_300_799).contains(seconds) else {
                return nil
            }
            moved = .date(SpecDate(seconds: seconds, nanoseconds: date.nanoseconds))
        case (.number(let number), _):
            guard let amount = Self.amount(of: step) else {
                return nil
            }
            moved = .number(Self.tidy(number + Double(steps) * amount))
        case (.percent(let percent), _):
            guard let amount = Self.amount(of: step) else {
                return nil
            }
            moved = .percent(min(100, max(0, Self.tidy(percent + Double(steps) * amount))))
        default:
            return nil
        }
        bound.values[parameter.name] = moved
        return bound.canonicalTerm
    }

    /// The numeric size of a step given as an integer, number or percentage.
    private static func amount(of step: Spec.Value) -> Double? {
        switch step {
        case .integer(let value): return Double(value)
        case .number(let value), .percent(let value): return value
        default: return nil
        }
    }

    /// Rounds away floating-point noise from repeated steps (0.1 + 0.2 becomes 0.3).
    private static func tidy(_ value: Double) -> Double {
        guard value.magnitude < 1e9 else {
            return value
        }
        return (value * 1e9).rounded() / 1e9
    }

    /// An error in this term, quoting the text it was parsed from when known.
    func bindingError(_ message: String, at column: Int) -> SpecError {
        if let source {
            return SpecError(text: source, column: column, message: message)
        }
        return SpecError(text: description, column: 1, message: message)
    }

    /// The value converted to a parameter's kind, or nil when it does not fit (spec strings are not parsed here).
    static func convert(_ value: Spec.Value, to kind: ActionSignature.Parameter.Kind) -> Spec.Value? {
        switch (kind, value) {
        case (.any, _):
            return value
        case (.string, .string), (.string, .word(_)):
            if case .word(let word) = value {
                return .string(word)
            }
            return value
        case (.integer, .integer):
            return value
        case (.integer, .number(let number)):
            return number == number.rounded() && number.magnitude < 9.2e18 ? .integer(Int(number)) : nil
        case (.number, .number):
            return value
        case (.number, .integer(let integer)):
            return .number(Double(integer))
        case (.percent, .percent(let percent)):
            return (0...100).contains(percent) ? value : nil
        case (.duration, .duration), (.date, .date), (.flag, .bool), (.spec, .spec):
            return value
        case (.spec, .word(let word)):
            return .spec(Spec(Spec.Term(action: word)))
        case (.json, _):
            return value.jsonText == nil ? nil : value
        case (.word(let words), .word(let word)), (.word(let words), .string(let word)):
            return words.isEmpty || words.contains(word) ? .word(word) : nil
        default:
            return nil
        }
    }

    private func converted(
        _ value: Spec.Value,
        for parameter: ActionSignature.Parameter,
        of signature: ActionSignature,
        at argument: Spec.Argument
    ) throws(SpecError) -> Spec.Value {
        let column = argument.location.start
        if parameter.kind == .spec {
            switch value {
            case .string(let text):
                do throws(SpecError) {
                    return .spec(try Spec(parsing: text))
                } catch {
                    throw bindingError("invalid spec for '\(parameter.name)': \(error.message)", at: column)
                }
            case .word(let word):
                var term = Spec.Term(action: word, location: argument.location, actionLocation: argument.location)
                term.source = source
                return .spec(Spec(term))
            default:
                break
            }
        }
        if let result = Self.convert(value, to: parameter.kind) {
            return result
        }
        var message = "'\(action)' takes \(parameter.kind.phrase) for '\(parameter.name)', got \(value.kindAndText)"
        switch (parameter.kind, value) {
        case (.percent, .percent):
            message = "'\(action)' takes a percentage between 0% and 100% for '\(parameter.name)', got \(value)"
        case (.percent, .integer), (.percent, .number):
            message += "; write it with '%', like 30%"
        case (.json, .word(let word)):
            message += "; quote strings, as in \"\(word)\""
        case (.word(let words), .word(let word)), (.word(let words), .string(let word)):
            if let match = suggestion(for: word, among: words) {
                message += "; did you mean '\(match)'?"
            }
        default:
            break
        }
        throw bindingError(message, at: column)
    }
}
