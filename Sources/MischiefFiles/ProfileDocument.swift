import Yams

/// The YAML shape of one profile, as decoded before it becomes a `ProfileFile`.
struct ProfileDocument: Decodable {
    var name: Located<String>
    var description: String?
    var key: Located<Int>?
    var seed: UInt64?
    var entries: OrderedMapping<Located<String>>?
    var location: FileLocation?

    private enum CodingKeys: String, CodingKey {
        case name, description, key, seed, entries
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
        entries = try container.decodeIfPresent(OrderedMapping<Located<String>>.self, forKey: .entries)
    }

    /// The profile this document describes.
    var profile: ProfileFile {
        ProfileFile(
            name: name.value,
            description: description,
            key: key?.value,
            seed: seed,
            entries: (entries?.elements ?? []).map {
                ProfileFile.Entry(
                    seam: $0.key, spec: $0.value.value, seamLocation: $0.keyLocation,
                    specLocation: $0.value.contentLocation, specSource: $0.value.source)
            },
            location: location,
            nameLocation: name.location,
            keyLocation: key?.location
        )
    }
}
