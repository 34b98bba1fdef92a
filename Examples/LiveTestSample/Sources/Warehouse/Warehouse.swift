import Mischief

/// A warehouse that answers slowly: each count of an item's stock is a call of the seam `warehouse.stock`, and the
/// shelf an item is on a call of `warehouse.shelf`.
public enum Warehouse {
    /// How many of an item are on the shelves.
    public static let stock = AsyncSeam<String, Int, any Error>(
        "warehouse.stock", title: "Stock of an item", category: "Warehouse", summary: "GET /stock/{item}"
    ) { item in
        try await Task.sleep(for: .milliseconds(20))
        return 10 * item.count
    }

    /// The shelf an item is on.
    public static let shelf = Seam<String, String, Never>(
        "warehouse.shelf", title: "Shelf of an item", category: "Warehouse", summary: "Where an item is kept"
    ) { item in "A\(item.count)" }

    /// Registers the seams (again is harmless), so a console lists them before their first call.
    public static func registerSeams() throws {
        try registerSeams(in: .shared)
    }

    /// Registers the seams in `registry`: what a test exported from a test's scope calls when it starts
    /// (`mischief export --scope … --register 'Warehouse.registerSeams(in:)'`).
    public static func registerSeams(in registry: Registry) throws {
        try registry.register(stock, shelf)
    }

    /// Counts `item` `rounds` times, `every` apart, as a stock-taking job does; returns the counts.
    public static func takeStock(of item: String, rounds: Int, every: Duration) async throws -> [Int] {
        var counts: [Int] = []
        for _ in 0..<rounds {
            counts.append(try await stock(item))
            try await Task.sleep(for: every)
        }
        return counts
    }
}
