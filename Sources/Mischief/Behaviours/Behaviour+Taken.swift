extension Behaviour {
    /// `modify` (a spec's `n*` or `p%`) around this behaviour, counting only the calls the behaviour takes.
    ///
    /// A `match` with no fallback takes some calls and lets the others fall through: network rules with a `host:`, or
    /// `system.net`'s `refused`, which never acts on a lookup. Around the match, `3*refused(host: "a")` would be used
    /// up by lookups and other hosts' calls, and `p%` would draw for them; inside it, only the calls its rules accept
    /// count. A single rule gets the modifier on its own behaviour; several rules share one modifier behind one rule
    /// that takes what any of them takes. Any other behaviour gets it around, as before.
    func countingTakenCalls(_ modify: (Behaviour) -> Behaviour) -> Behaviour {
        Behaviour(Self.countingTaken(node, modify))
    }

    private static func countingTaken(_ node: Node, _ modify: (Behaviour) -> Behaviour) -> Node {
        switch node {
        case .labelled(let label, let inner):
            return .labelled(label, countingTaken(inner, modify))
        case .match(let rules, nil) where rules.count == 1:
            let rule = rules[0]
            return .match(
                [
                    MatchRule(
                        matches: rule.matches, test: rule.test, equality: rule.equality,
                        node: modify(Behaviour(rule.node)).node)
                ],
                fallback: nil)
        case .match(let rules, nil) where !rules.isEmpty:
            let matches = rules.map(\.matches)
            let tests = rules.map(\.test)
            let any = MatchRule(
                matches: { input in matches.contains { $0(input) } },
                test: { input in tests.contains { $0(input) } },
                node: modify(Behaviour(node)).node)
            return .match([any], fallback: nil)
        default:
            return modify(Behaviour(node)).node
        }
    }
}
