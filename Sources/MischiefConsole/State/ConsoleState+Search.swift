import Mischief

/// `/` searches more than the seams' own text: a seam is listed when one of its layers (spec, behaviour, who applied
/// it), a profile that changes it (name, description) or one of its events matches too, and the status line says
/// where the text was found.
extension ConsoleState {
    /// Where the filter's text was found.
    struct SearchHits: Sendable, Equatable {
        /// Seams listed.
        var seams = 0
        /// Layers whose spec, behaviour or source holds the text.
        var layers = 0
        /// Profiles whose name or description holds it.
        var profiles: [String] = []
        /// Events whose message holds it.
        var events = 0
    }

    /// The seams (by id) that something other than their own text makes match `needle` (lower case): their layers,
    /// the profiles that change them, their events.
    static func seamsMatchedElsewhere(_ data: ConsoleData, needle: String) -> Set<SeamID> {
        guard !needle.isEmpty else { return [] }
        var found = Set<SeamID>()
        for seam in data.seams where seam.layers.contains(where: { layerMatches($0, needle) }) { found.insert(seam.id) }
        for status in data.profiles where profileMatches(status.profile, needle) {
            found.formUnion(status.profile.entries.map(\.seam))
        }
        for event in data.events where event.message.lowercased().contains(needle) {
            if let seam = event.seam { found.insert(seam) }
        }
        return found
    }

    /// Where the filter's text is found now; nil while the filter is empty.
    var searchHits: SearchHits? {
        let needle = filter.text.lowercased()
        guard !needle.isEmpty, let data else { return nil }
        var hits = SearchHits()
        hits.seams = lines.count { if case .seam = $0 { true } else { false } }
        hits.layers = data.seams.map { $0.layers.count { Self.layerMatches($0, needle) } }.reduce(0, +)
        hits.profiles = data.profiles.filter { Self.profileMatches($0.profile, needle) }.map(\.profile.name)
        hits.events = events.count { $0.message.lowercased().contains(needle) }
        return hits
    }

    /// The hits as the status line says them: `2 seams · 1 layer · profile Tokyo · 3 events (e)`.
    var searchSummary: String? {
        guard let hits = searchHits else { return nil }
        func count(_ number: Int, _ word: String) -> String { "\(number) \(word)\(number == 1 ? "" : "s")" }
        var parts = [count(hits.seams, "seam")]
        if hits.layers > 0 { parts.append(count(hits.layers, "layer")) }
        if !hits.profiles.isEmpty {
            parts.append(
                hits.profiles.count <= 2
                    ? "profile\(hits.profiles.count == 1 ? "" : "s") " + hits.profiles.joined(separator: ", ")
                    : count(hits.profiles.count, "profile") + " (p)")
        }
        if hits.events > 0 { parts.append(count(hits.events, "event") + " (e)") }
        return parts.joined(separator: " · ")
    }

    private static func layerMatches(_ layer: LayerSnapshot, _ needle: String) -> Bool {
        layer.behaviourText.lowercased().contains(needle) || (layer.spec?.lowercased().contains(needle) ?? false)
            || layer.source.lowercased().contains(needle)
    }

    private static func profileMatches(_ profile: Profile, _ needle: String) -> Bool {
        profile.name.lowercased().contains(needle) || (profile.description?.lowercased().contains(needle) ?? false)
    }
}
