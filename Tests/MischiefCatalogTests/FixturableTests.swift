import Foundation
import MischiefCatalog
import Testing

struct FixturableTests {
    @Test func modelFixtureWithModifier() throws {
        let user = User.fixture { $0.name = "x" }
        #expect(user.name == "x")
        var expected = User.fixture
        expected.name = "x"
        #expect(user == expected)
        #expect(User.fixture == (try Fixtures.make(User.self, label: "fixture")))
        #expect(User.fixture(label: "alice") == (try Fixtures.make(User.self, label: "alice")))
        #expect(User.fixture(label: "alice") { $0.age = 1 }.age == 1)
    }

    @Test func scalarFixturesAreStable() {
        #expect(String.fixture == String.fixture(label: "fixture"))
        #expect(String.fixture(label: "a") == String.fixture(label: "a"))
        #expect(String.fixture(label: "a") != String.fixture(label: "b"))
        #expect(String.fixture(label: "a").split(separator: "-").count == 3)
        #expect((0..<100).contains(Int.fixture(label: "a")))
        #expect(Int8.fixture(label: "a") == Int8(Int.fixture(label: "a")))
        #expect(UInt64.fixture(label: "a") == UInt64(Int.fixture(label: "a")))
        #expect(Double.fixture(label: "a") < 100)
        #expect(Bool.fixture(label: "a") == Bool.fixture(label: "a"))
        #expect(UUID.fixture(label: "a") == UUID.fixture(label: "a"))
        #expect(UUID.fixture(label: "a") != UUID.fixture(label: "b"))
        #expect(Date.fixture(label: "a") >= Fixtures.dateRangeStart)
        #expect(URL.fixture(label: "a").host == "example.com")
        #expect(!Data.fixture(label: "a").isEmpty)
        #expect(Int.fixture { $0 += 1 } == Int.fixture + 1)
    }

    @Test func collectionFixtures() {
        let names = [String].fixture(label: "n")
        #expect(names == [String.fixture(label: "n[0]"), String.fixture(label: "n[1]")])
        #expect(String?.fixture(label: "n") == String.fixture(label: "n"))
        #expect([User].fixture(label: "team").count == 2)
        #expect([Int]?.fixture(label: "x")?.count == 2)
    }

    /// Recorded once: a change here means the container fixtures changed, and every test that stored one with them.
    @Test func containerFixturesArePinned() throws {
        #expect(Set<String>.fixture(label: "tags") == ["happy-raven-82", "lucky-fox-36"])
        #expect([String: Int].fixture(label: "scores") == ["fuzzy-wombat-56": 11, "noble-heron-97": 6])
        #expect([Bool: String].fixture(label: "m") == [false: "blue-panda-30", true: "quiet-koala-5"])
        #expect(Set<Bool>.fixture(label: "flags") == [false, true])
        #expect(try Result<Int, any Error>.fixture(label: "r").get() == 5)
        #expect(Decimal.fixture(label: "price") == Decimal(string: "2.82"))
        #expect(Decimal.fixture(label: "price").description == "\(Double.fixture(label: "price"))")
        #expect(Character.fixture(label: "c") == "q" && Character.fixture(label: "initial") == "j")
        #expect(ClosedRange<Int>.fixture(label: "age") == 25...46)
        let stay = Range<Date>.fixture(label: "stay")
        #expect(stay == Date(iso: "2022-03-06T12:45:34Z")..<Date(iso: "2024-12-14T12:07:01Z"))
        #expect(ContiguousArray<Int>.fixture(label: "n") == ContiguousArray([Int].fixture(label: "n")))
    }

    @Test func containerElementsComeFromLabelsByPositionNotByHashingOrder() {
        // Swift seeds Set and Dictionary hashing per process, so nothing may be derived from iteration order: each
        // element is the fixture of a label made from the container's label and a position.
        #expect(
            Set<String>.fixture(label: "tags") == [String.fixture(label: "tags[0]"), String.fixture(label: "tags[1]")])
        let scores = [String: Int].fixture(label: "scores")
        for index in 0..<2 {
            #expect(
                scores[String.fixture(label: "scores[\(index)].key")] == Int.fixture(label: "scores[\(index)].value"))
        }
        // Bounds are put in order whichever label gave the smaller one.
        let range = ClosedRange<Int>.fixture(label: "age")
        let bounds = [Int.fixture(label: "age.lowerBound"), Int.fixture(label: "age.upperBound")]
        #expect(range == bounds.min()!...bounds.max()!)
    }

    @Test func containersOfATypeWithOneValueHoldOne() {
        #expect(Set<Only>.fixture(label: "x") == [.only])
        #expect([Only: Int].fixture(label: "x") == [.only: Int.fixture(label: "x[0].value")])
    }

    @Test func containerFixturesNest() throws {
        let nested = [String: Set<Int>].fixture(label: "groups")
        #expect(nested.count == 2)
        #expect(nested.values.allSatisfy { $0.count == 2 })
        #expect(nested == [String: Set<Int>].fixture(label: "groups"))
        #expect(try Result<[String: Decimal], any Error>.fixture(label: "prices").map(\.count).get() == 2)
    }
}

/// A fixturable type with a single value: a set of its fixtures cannot hold two.
private enum Only: Fixturable, Hashable {
    case only

    static func fixture(label: String) -> Only { .only }
}
