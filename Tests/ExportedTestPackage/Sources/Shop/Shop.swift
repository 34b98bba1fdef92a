import Foundation
import Mischief
import MischiefCatalog

/// A shop's checkout: a price lookup that can fail and a clock, both seams, as an app declares them.
public enum Shop {
    /// The price of an item, in cents (`shop.price`).
    public static let price = Seam<Int, Int, any Error>(
        "shop.price", title: "Price", category: "Shop", summary: "an item's price in cents"
    ) { item in 100 * item }

    /// The shop's clock (`shop.clock`).
    public static let clock = ChaosClock(id: "shop.clock")

    /// Registers the shop's seams in `registry`, as the app does when it starts (again: harmless).
    @Sendable public static func registerSeams(in registry: Registry) throws {
        try registry.register(price, clock.seam)
    }

    /// Checks out `items` items one by one: each line is the item's price (or `failed`) and the day it was priced.
    public static func checkout(items: Int) -> [String] {
        (1...max(1, items)).map { item in
            let day = Int(clock.date.timeIntervalSince1970 / 86_400)
            let cents = (try? price(item)).map(String.init) ?? "failed"
            return "\(item): \(cents) on day \(day)"
        }
    }
}
