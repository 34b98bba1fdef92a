import Mischief
import Yams

/// The YAML shape of one profile, as decoded before it becomes a `ProfileFile`.
struct ProfileDocument: Decodable {
    var name: Located<String>
    var description: String?
    var key: Located<Int>?
    var seed: UInt64?
    var entries: OrderedMapping<EntryDocument>?
    var ttl: TTLText?
    var guards: [Located<String>]?
    var location: FileLocation?

    private enum CodingKeys: String, CodingKey {
        case name, description, key, seed, entries, ttl, guards
    }

    init(from decoder: any Decoder) throws {
        location = YAMLFile.location(of: decoder)
        if let yaml = decoder as? YAMLNodeDecoder, yaml.node.mapping == nil {
            throw ProfileDocuments.notAProfile(yaml)
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(Located<String>.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        key = try container.decodeIfPresent(Located<Int>.self, forKey: .key)
        seed = try container.decodeIfPresent(UInt64.self, forKey: .seed)
        entries = try container.decodeIfPresent(OrderedMapping<EntryDocument>.self, forKey: .entries)
        ttl = try container.decodeIfPresent(TTLText.self, forKey: .ttl)
        guards = try container.decodeIfPresent([Located<String>].self, forKey: .guards)
    }

    /// The profile this document describes.
    var profile: ProfileFile {
        var profile = ProfileFile(
            name: name.value,
            description: description,
            key: key?.value,
            seed: seed,
            entries: (entries?.elements ?? []).map {
                ProfileFile.Entry(
                    seam: $0.key, spec: $0.value.spec.value, seamLocation: $0.keyLocation,
                    specLocation: $0.value.spec.contentLocation, specSource: $0.value.spec.source,
                    ttl: $0.value.ttl?.duration)
            },
            ttl: ttl?.duration,
            location: location,
            nameLocation: name.location,
            keyLocation: key?.location
        )
        profile.guards = guards ?? []
        return profile
    }
}

/// One entry's value: the spec as text (`clock.now: shift(+1d)`), or a mapping with the spec and a time to live
/// (`clock.now: {spec: shift(+1d), ttl: 10m}`).
struct EntryDocument: Decodable {
    var spec: Located<String>
    var ttl: TTLText?

    private enum CodingKeys: String, CodingKey { case spec, ttl }

    init(from decoder: any Decoder) throws {
        if let yaml = decoder as? YAMLNodeDecoder, yaml.node.mapping != nil {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            spec = try container.decode(Located<String>.self, forKey: .spec)
            ttl = try container.decodeIfPresent(TTLText.self, forKey: .ttl)
        } else {
            spec = try Located<String>(from: decoder)
            ttl = nil
        }
    }
}

/// A time to live written as a spec duration (`30s`, `10m`, `1h`), checked as a registry checks it; a bad one is
/// an error at its place in the file.
struct TTLText: Decodable {
    var duration: Duration

    /// Why a time to live was refused, as the file's diagnostics show it.
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let parsed: SpecDuration
        do throws(SpecError) {
            parsed = try SpecDuration(parsing: text)
        } catch {
            throw Invalid(description: "ttl: \(error.message)")
        }
        do throws(MischiefError) {
            try Registry.check(ttl: parsed.duration)
        } catch {
            throw Invalid(description: error.description)
        }
        duration = parsed.duration
    }
}
