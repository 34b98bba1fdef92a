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
}
