/// A process- and machine-independent string hash (64-bit FNV-1a over UTF-8).
///
/// Unlike `hashValue`, which Swift seeds randomly per process, the result never changes, so anything derived from it
/// (fixtures, picks) is reproducible everywhere.
///
/// ```swift
/// let h = StableHash.fnv1a("alice/name") // identical on every run and machine
/// ```
public enum StableHash: Sendable {
    /// The FNV-1a 64-bit offset basis.
    public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The FNV-1a 64-bit prime.
    public static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// FNV-1a 64-bit hash of the UTF-8 bytes of `text`.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash = offsetBasis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// Hash of `label` and `path` joined by `/`, the key used for labelled fixtures.
    public static func fnv1a(label: String, path: String) -> UInt64 {
        fnv1a(label + "/" + path)
    }
}
