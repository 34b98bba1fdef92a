extension Spec {
    /// One action with its optional probability, count and arguments: `[p%[@key]][n*]action[(args)]`.
    ///
    /// Source locations and text are ignored by `==` and `hash(into:)`, so a term equals the term parsed from its
    /// canonical text.
    public struct Term: Hashable, Sendable, CustomStringConvertible {
        /// The chance, in percent (0...100), that the term fires on a call; nil means always.
        public var probability: Double?
        /// What ``probability`` draws for: each call (`10%`) or each ``ChaosKey`` (`10%@key`). Ignored, and not
        /// part of equality, when there is no probability.
        public var probabilityScope: ProbabilityScope
        /// The term fires on the first `count` calls that reach it, then falls through; nil means no limit.
        public var count: Int?
        /// The action's name, e.g. `shift`.
        public var action: String
        /// The arguments; empty when the term has no parentheses (or empty ones).
        public var arguments: [Argument]
        /// The columns of the whole term. Not part of equality.
        public var location: SourceRange
        /// The columns of the action's name. Not part of equality.
        public var actionLocation: SourceRange
        /// The whole spec text the term was parsed from, quoted by binding errors; nil for terms built in code.
        /// Not part of equality.
        public var source: String?

        /// Creates a term.
        public init(
            probability: Double? = nil,
            per probabilityScope: ProbabilityScope = .call,
            count: Int? = nil,
            action: String,
            arguments: [Argument] = [],
            location: SourceRange = .unknown,
            actionLocation: SourceRange = .unknown,
            source: String? = nil
        ) {
            self.probability = probability
            self.probabilityScope = probabilityScope
            self.count = count
            self.action = action
            self.arguments = arguments
            self.location = location
            self.actionLocation = actionLocation
            self.source = source
        }

        /// The canonical text, e.g. `50%3*shift(1d, by: 2)`, without spaces outside the arguments but the one after
        /// a probability's scope (`10%@key 3*offline`).
        public var description: String {
            var text = ""
            if let probability {
                text += SpecFormat.number(probability) + "%"
                if probabilityScope == .key {
                    text += "@key "
                }
            }
            if let count {
                text += "\(count)*"
            }
            text += action
            if !arguments.isEmpty {
                text += "(" + arguments.map(\.description).joined(separator: ", ") + ")"
            }
            return text
        }

        /// Compares the term ignoring source locations.
        public static func == (lhs: Term, rhs: Term) -> Bool {
            lhs.probability == rhs.probability && lhs.effectiveScope == rhs.effectiveScope && lhs.count == rhs.count
                && lhs.action == rhs.action && lhs.arguments == rhs.arguments
        }

        /// Hashes the same parts `==` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(probability)
            hasher.combine(effectiveScope)
            hasher.combine(count)
            hasher.combine(action)
            hasher.combine(arguments)
        }

        /// The scope that matters: nil without a probability.
        private var effectiveScope: ProbabilityScope? { probability == nil ? nil : probabilityScope }
    }
}
