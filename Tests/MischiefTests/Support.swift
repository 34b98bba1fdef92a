import Mischief

/// A fresh registry and a few seams of each kind, so every test runs alone.
struct Fixture {
    let registry: Registry
    let double = Seam<Int, Int, Never>("test.double", title: "Double", category: "Test", summary: "x * 2") { $0 * 2 }
    let parse = Seam<String, Int, any Error>("test.parse", title: "Parse", category: "Test", summary: "Int(s)") {
        guard let value = Int($0) else { throw InjectedError("not a number: \($0)") }
        return value
    }
    let rules = Seam<String, String, Never>(
        "test.rules", title: "Rules", category: "Test", summary: "merging rule list", stacking: .merge
    ) { "original \($0)" }
    let fetch = AsyncSeam<Int, String, any Error>("test.fetch", title: "Fetch", category: "Test", summary: "async") {
        "item \($0)"
    }
    let optional = Seam<Void, String?, Never>("test.optional", title: "Optional", category: "Test", summary: "?") {
        "present"
    }

    init(sessionSeed: UInt64 = 42) throws {
        registry = Registry(sessionSeed: sessionSeed)
        try registry.register(double, parse, rules, fetch, optional)
    }

    /// The fixture's seams in a registry whose time is `clock`'s.
    init(clock: ManualRegistryClock) throws {
        registry = Registry(sessionSeed: 42, clock: clock, expiresOnItsOwn: false)
        try registry.register(double, parse, rules, fetch, optional)
    }
}

struct Boom: Error, Equatable {}
