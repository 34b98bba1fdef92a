import Foundation
import Mischief

extension RecordingExport {
    /// The session seed the `MISCHIEF_APPLY` line sets with `MISCHIEF_SEED`: the layers' seed when they share one,
    /// else the recording's session seed (``notes(for:)`` names the layers whose own seed the line cannot carry).
    public var environmentSeed: UInt64 {
        let seeds = Set(layers.map(\.seed))
        return seeds.count == 1 ? seeds.first! : header.sessionSeed
    }

    /// The layers as a `MISCHIEF_APPLY` value, `seam=spec;seam=spec`, written by `EnvironmentChaos.value(of:)`, the
    /// serializer of the console's `Y`, so `EnvironmentChaos(parsing:)` reads back the same seams and specs.
    public var environmentValue: String {
        EnvironmentChaos.value(of: layers.map { SeamSpec(seam: $0.seam, spec: $0.spec) })
    }

    /// `MISCHIEF_SEED=7 MISCHIEF_APPLY='clock.now=shift(+1d);net.request=50% offline'`, quoted for a POSIX shell.
    public var environmentLine: String {
        "MISCHIEF_SEED=\(environmentSeed) \(EnvironmentChaos.variable)=\(Self.shellQuoted(environmentValue))"
    }

    /// What a `MISCHIEF_APPLY` line cannot carry: times to live, and seeds other than the one it sets.
    var environmentNotes: [String] {
        let seed = environmentSeed
        return layers.flatMap { layer in
            var notes: [String] = []
            if layer.seed != seed {
                notes.append(
                    "\(layer.seam): its seed \(layer.seed) (MISCHIEF_SEED sets one seed for all;"
                        + " export --as profile or --as test keeps it)")
            }
            if let ttl = layer.ttl {
                notes.append("\(layer.seam): its ttl of \(SpecDuration(ttl)) (MISCHIEF_APPLY has no TTLs)")
            }
            return notes
        }
    }

    /// `text` in single quotes for a POSIX shell, a `'` in it written `'\''`.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
