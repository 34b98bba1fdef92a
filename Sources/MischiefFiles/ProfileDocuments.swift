import Yams

/// The top level of a profile file: one profile, or a list of profiles.
struct ProfileDocuments: Decodable {
    var documents: [ProfileDocument]

    init(from decoder: any Decoder) throws {
        if let yaml = decoder as? YAMLNodeDecoder {
            switch yaml.node {
            case .sequence: documents = try [ProfileDocument](from: decoder)
            case .mapping: documents = [try ProfileDocument(from: decoder)]
            default: throw Self.notAProfile(yaml)
            }
        } else if let list = try? [ProfileDocument](from: decoder) {
            documents = list
        } else {
            documents = [try ProfileDocument(from: decoder)]
        }
    }

    /// "expected a profile (a mapping with 'name' and 'entries') ..., found ...", located at the node.
    static func notAProfile(_ decoder: YAMLNodeDecoder) -> DecodingError {
        let top = decoder.codingPath.isEmpty
        let message =
            "expected a profile (a mapping with 'name' and 'entries')"
            + (top ? " or a list of profiles" : "") + " \(YAMLCodingKey.phrase(for: decoder.codingPath))"
            + ", found \(YAMLNodeDecoder.summary(of: decoder.node))"
        return .typeMismatch(
            ProfileDocument.self,
            .init(
                codingPath: decoder.codingPath, debugDescription: message,
                underlyingError: decoder.located(decoder.state.location(of: decoder.node), message)))
    }
}
