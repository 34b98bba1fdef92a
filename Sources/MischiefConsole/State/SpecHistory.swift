import Mischief

/// The specs applied before, per seam, newest last: what ↑ and ↓ walk in the action picker's spec field. Bounded:
/// ``limit`` specs a seam (the oldest go first) and ``seamLimit`` seams (those used longest ago go first).
public struct SpecHistory: Sendable, Equatable, Codable {
    /// The most specs kept for one seam.
    public static let limit = 100
    /// The most seams kept.
    public static let seamLimit = 200
    /// The longest spec kept, in characters; longer ones are not remembered.
    public static let specLimit = 4_096

    /// Each seam's specs, oldest first.
    public private(set) var specs: [String: [String]] = [:]
    /// The seams, the one used longest ago first.
    public private(set) var order: [String] = []

    /// An empty history.
    public init() {}

    /// Remembers `spec` as the newest of `seam` (an older copy of it moves to the end).
    public mutating func add(_ spec: String, for seam: SeamID) {
        guard !spec.isEmpty, spec.count <= Self.specLimit else { return }
        let key = seam.rawValue
        var list = specs[key] ?? []
        list.removeAll { $0 == spec }
        list.append(spec)
        specs[key] = Array(list.suffix(Self.limit))
        order.removeAll { $0 == key }
        order.append(key)
        while order.count > Self.seamLimit { specs[order.removeFirst()] = nil }
    }

    /// The specs applied to `seam`, oldest first.
    public func specs(for seam: SeamID) -> [String] { specs[seam.rawValue] ?? [] }

    /// This history within its bounds, whatever a file said (a file edited by hand may hold more).
    public var bounded: SpecHistory {
        var result = SpecHistory()
        let seams = order.filter { specs[$0] != nil } + specs.keys.filter { !order.contains($0) }.sorted()
        for key in seams {
            guard let seam = try? SeamID(key) else { continue }
            for spec in specs[key] ?? [] { result.add(spec, for: seam) }
        }
        return result
    }
}
