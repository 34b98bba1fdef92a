/// An integer coding key for array positions.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init(intValue: Int) { self.intValue = intValue }
}
