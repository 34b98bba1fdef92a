import Yams

/// How much a YAML document stands for once its aliases are expanded: decoding walks every alias as if its anchor
/// were written out again, so a few kilobytes of `*G` can stand for millions of nodes ("billion laughs").
enum YAMLExpansion {
    /// The most nodes a document may have, counting each alias as all the nodes it stands for: 20,000, far more
    /// than any profile or theme file needs.
    static let maximumNodes = 20_000

    /// Counts the nodes of `root` as decoding would visit them, without recursion, and refuses the document as
    /// soon as the count passes ``maximumNodes``, at the line of the alias (or, failing that, the node) that
    /// crossed it. The count stops there, so the check costs at most ``maximumNodes`` steps.
    static func check(_ root: Node, state: DecodingState) throws(FileErrors) {
        var count = 0
        var seen = Set<[Int]>()
        // Each node with the mark to blame: the key it is the value of (where an alias is written), or its own.
        var pending: [(node: Node, site: Mark?, alias: Mark?)] = [(root, root.mark, nil)]
        while let (node, site, alias) = pending.popLast() {
            count += 1
            var expansion = alias
            if expansion == nil, let mark = node.mark, node.mapping != nil || node.sequence != nil,
                !seen.insert([mark.line, mark.column]).inserted
            {
                expansion = site  // this container was visited before: here it is an alias's expansion
            }
            guard count <= maximumNodes else {
                let location = state.location(of: expansion ?? site ?? node.mark)
                throw FileErrors(
                    .error(
                        at: location,
                        "the document stands for more than \(maximumNodes) YAML nodes once its aliases are expanded "
                            + "(an alias counts as everything it stands for); write less, or use fewer aliases"))
            }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping.reversed() {
                    pending.append((value, key.mark, expansion))
                    pending.append((key, key.mark, expansion))
                }
            case .sequence(let sequence):
                for element in sequence.reversed() { pending.append((element, element.mark ?? site, expansion)) }
            default:
                break
            }
        }
    }
}
