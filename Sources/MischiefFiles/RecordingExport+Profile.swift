import Mischief

extension RecordingExport {
    /// The layers as profiles, one for each seed (a profile has one seed for all its entries): a single profile
    /// called `name` when the layers share a seed, else `name (seed N)` for each, in the order the seeds first
    /// appear. Each entry keeps its time to live.
    public func profiles(named name: String) -> [ProfileFile] {
        let groups = seedGroups
        guard !groups.isEmpty else {
            return [ProfileFile(name: name, description: description, seed: header.sessionSeed)]
        }
        return groups.map { group in
            ProfileFile(
                name: groups.count == 1 ? name : "\(name) (seed \(group.seed))", description: description,
                seed: group.seed,
                entries: group.layers.map { ProfileFile.Entry(seam: $0.seam.rawValue, spec: $0.spec, ttl: $0.ttl) })
        }
    }

    /// The profiles' description: where they come from.
    private var description: String {
        "Exported from a recording of \(Self.oneLine(header.target)) started \(startedText)"
    }

    /// The profile file: comments saying where it comes from and what is not in it, then the profiles as
    /// ``ProfileFile/yaml()`` writes them (a list when there are several).
    func profileYAML(name: String) -> String {
        var lines = ["# Exported by `mischief export --as profile` from a recording of \(origin)."]
        if !layers.isEmpty {
            lines.append("# The changes applied when it ended, each with the seed it drew from:")
            lines += layers.map { "#   " + summary(of: $0) }
        }
        lines += notes(for: .profile).map { "# Not exported: " + $0 }
        let profiles = profiles(named: name)
        let yaml = profiles.count == 1 ? profiles[0].yaml() : ProfileFile.yaml(profiles)
        return lines.joined(separator: "\n") + "\n" + yaml
    }
}
