import Testing

@testable import Mischief

/// Stacked `merge` layers on an async seam are walked as one list of rules, as on a synchronous seam
/// (`MergeStackTests`): newest first, and a rule that matches without firing ends its own layer's turn.
@Suite struct AsyncMergeStackTests {
    private func mergingSeam() -> AsyncSeam<Int, Int, Never> {
        AsyncSeam<Int, Int, Never>("test.async-stack", title: "Stack", category: "Test", summary: "x", stacking: .merge)
        {
            -$0
        }
    }

    @Test func aHundredLayersAnswerNewestFirst() async throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        for k in 0..<100 { try registry.apply(seam, .match([.init({ $0 >= k }, .constant(k))])) }
        var answers: [Int] = []
        for input in 0..<100 { answers.append(await seam(input)) }
        #expect(answers == Array(0..<100))
        #expect(await seam(1_000) == 99)
        #expect(await seam(-5) == 5)  // no layer answers: the original
    }

    @Test func aMatchedRuleThatDoesNotFireEndsItsLayersTurn() async throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        try registry.apply(seam, .match([.when(1, .constant(20)), .when(2, .constant(22))]))
        try registry.apply(seam, .constant(30).probability(0))  // a layer without rules that never fires
        try registry.apply(seam, .match([]))  // no rules: nothing to try
        try registry.apply(seam, .match([.when(1, .first(1, .constant(10))), .when(1, .constant(11))]))
        #expect(await seam(1) == 10)  // the newest layer's first rule
        #expect(await seam(1) == 20)  // it matches but is used up: the oldest layer, not 11
        #expect(await seam(2) == 22)
        #expect(await seam(3) == -3)  // nothing matches: the original
    }

    @Test func layersOfRulesAndOtherLayersKeepTheirOrder() async throws {
        let registry = Registry(sessionSeed: 1)
        let seam = mergingSeam()
        try registry.register(seam)
        try registry.apply(seam, .match([.when(1, .constant(1)), .when(2, .constant(2))]))
        try registry.apply(seam, .match([.when(2, .constant(20))], otherwise: .match([.when(3, .constant(30))])))
        try registry.apply(seam, .match([.when(3, .constant(300)), .when(4, .constant(400))]))
        try registry.apply(seam, .first(5, .constant(500)))
        var answers: [Int] = []
        for _ in 0..<2 { for input in 1...5 { answers.append(await seam(input)) } }
        #expect(answers == [500, 500, 500, 500, 500, 1, 20, 300, 400, -5])
    }

    @Test func aLayerOfRulesKeepsThemForTheStack() throws {
        let seam = mergingSeam()
        let context = LayerContext(sessionSeed: 1, label: "test", reporter: { _, _ in })
        let rules = try seam.compile(
            Behaviour<Int, Int, Never>.match([.when(1, .constant(1)), .when(2, .constant(2))]), context: context)
        #expect((rules as? AsyncBox<Int, Int, Never>)?.rules?.count == 2)
        let plain = try seam.compile(Behaviour<Int, Int, Never>.constant(3), context: context)
        #expect((plain as? AsyncBox<Int, Int, Never>)?.rules == nil)
        #expect((plain as? AsyncBox<Int, Int, Never>)?.constant == 3)
    }
}
