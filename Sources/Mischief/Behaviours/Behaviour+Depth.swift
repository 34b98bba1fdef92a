extension Behaviour {
    /// The deepest a behaviour may nest when applied: each `+` term, `seq`, fallback, probability, count and label
    /// adds a level. Compiling and running a behaviour recurses once per level, on whatever thread applies it or
    /// calls the seam, so a deeper one is refused rather than left to overflow a thread's stack.
    public static var maximumDepth: Int { 128 }
}

extension Behaviour.Node {
    /// The behaviours this one runs or wraps.
    var children: [Behaviour.Node] {
        switch self {
        case .original, .constant, .closure, .asyncClosure, .random, .failure, .failureMessage, .crash: []
        case .sequence(let nodes), .fallback(let nodes): nodes
        case .match(let rules, let fallback): rules.map(\.node) + (fallback.map { [$0] } ?? [])
        case .delay(_, let then), .pause(_, _, let then), .log(_, let then): [then]
        case .probability(_, _, _, let node), .firstCalls(_, let node), .transform(let node, _),
            .labelled(_, let node):
            [node]
        }
    }

    /// How many levels this behaviour nests (a leaf is 1), counted without recursion; stops counting past `limit`.
    func depth(upTo limit: Int) -> Int {
        var deepest = 0
        var pending: [(node: Behaviour.Node, depth: Int)] = [(self, 1)]
        while let (node, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            if deepest > limit { return deepest }
            for child in node.children { pending.append((child, depth + 1)) }
        }
        return deepest
    }

    /// Throws when this behaviour nests deeper than ``Behaviour/maximumDepth``.
    func checkDepth(seam: SeamID) throws(MischiefError) {
        let limit = Behaviour.maximumDepth
        guard depth(upTo: limit) <= limit else {
            throw .unsupported(
                seam,
                "the behaviour nests more than \(limit) levels deep, and at most \(limit) levels are allowed "
                    + "(each '+' term, seq, fallback, probability and count adds one); make it shallower")
        }
    }
}
