import Foundation
import Mischief
import MischiefCatalog
import MischiefTesting
import Synchronization
import Testing

/// A protocol as an app would have it, and its mock written one line per member.
protocol WeatherAPI: Sendable {
    func forecast(for city: String) async -> String
    func save(_ forecast: String) throws
    var unit: String { get set }
    func decode<T>(_ text: String) -> T
}

final class MockWeatherAPI: WeatherAPI, @unchecked Sendable {
    let forecastMock = FuncMock<String, String>("forecast")
    let saveMock = ThrowingFuncMock<String, Void>("save")
    let unitMock = PropMock<String>("unit", "celsius")
    let decodeMock = AnyFuncMock("decode")

    func forecast(for city: String) async -> String { forecastMock.call(city) }
    func save(_ forecast: String) throws { try saveMock.call(forecast) }
    var unit: String {
        get { unitMock.get() }
        set { unitMock.set(newValue) }
    }
    func decode<T>(_ text: String) -> T { decodeMock.call(text) }
}

struct SaveFailed: Error, Equatable {}

@Suite("Stubs and mocks")
struct MockTests {
    @Test(.mischief())
    func stubbedSeam() async throws {
        let fetch = stub(Seams.fetch)
        fetch.returns("stubbed")
        fetch.when(.equal("down")).throws(InjectedError("offline"))
        fetch.when(.equal("seq")).returns(sequence: ["a", "b"])
        #expect(try await Seams.fetch("x") == "stubbed")
        await #expect(throws: InjectedError.self) { try await Seams.fetch("down") }
        #expect(try await [Seams.fetch("seq"), Seams.fetch("seq"), Seams.fetch("seq")] == ["a", "b", "b"])
        expect(Seams.fetch, .exactly(5))
    }

    @Test("a strict stub fails on an unstubbed call, naming the seam and the input")
    func strictStub() {
        withKnownIssue {
            withMischiefScope {
                let double = stub(Seams.double)
                double.when(.equal(1)).returns(100)
                #expect(Seams.double(1) == 100)
                #expect(Seams.double(2) == 4)  // the original, after the failure
            }
        } matching: { issue in
            text(of: issue) == "Unstubbed call to testing.double with input 2"
        }
    }

    @Test("a strict stub on an async seam fails on an unstubbed call, then runs the original")
    func strictAsyncStub() async throws {
        try await withKnownIssue {
            try await withMischiefScope {
                stub(Seams.fetch).when(.equal("a")).returns("stubbed")
                let stubbed = try await Seams.fetch("a")
                let original = try await Seams.fetch("b")
                #expect(stubbed == "stubbed")
                #expect(original == "body of b")
            }
        } matching: { issue in
            text(of: issue) == "Unstubbed call to testing.fetch with input b"
        }
    }

    @Test("a nice stub gives the original, or the default value when asked: nil for an optional output")
    func niceStub() {
        withMischiefScope {
            stub(Seams.lookup, strict: false, otherwise: .defaultValue).when(.equal(1)).returns("one")
            #expect(Seams.lookup(1) == "one")
            #expect(Seams.lookup(2) == nil)
            stub(Seams.double, strict: false).when(.equal(1)).answers { $0 + 1000 }
            #expect(Seams.double(1) == 1001)
            #expect(Seams.double(5) == 10)
        }
    }

    @Test func protocolMock() async throws {
        let api = MockWeatherAPI()
        api.forecastMock.returns("sunny")
        api.forecastMock.when(.equal("Atlantis")).answers { "under water in \($0)" }
        api.saveMock.returns(())
        api.saveMock.when(.equal("bad")).throws(SaveFailed())  // newer rules come first
        api.decodeMock.returns(42)

        #expect(await api.forecast(for: "Tokyo") == "sunny")
        #expect(await api.forecast(for: "Atlantis") == "under water in Atlantis")
        #expect(throws: SaveFailed()) { try api.save("bad") }
        try api.save("good")
        var mutable = api as any WeatherAPI
        mutable.unit = "kelvin"
        #expect(mutable.unit == "kelvin")
        let decoded: Int = api.decode("42")
        #expect(decoded == 42)

        #expect(api.forecastMock.calls == ["Tokyo", "Atlantis"])
        #expect(api.saveMock.calls == ["bad", "good"])
        #expect(api.unitMock.sets == ["kelvin"])
        #expect(api.unitMock.getCount == 1)
        #expect(api.decodeMock.callCount == 1)
        expect(api.forecastMock, .exactly(1), where: .equal("Tokyo"))

        api.forecastMock.reset()
        #expect(api.forecastMock.callCount == 0)
        withKnownIssue {
            _ = api.forecastMock.call("after reset")  // strict and unstubbed: fails, returns the String fixture
        } matching: { issue in
            text(of: issue) == "Unstubbed call to forecast with input after reset"
        }
    }

    @Test("an answer can call the completion handler the input carries, as Moxture's onCall")
    func completionHandlers() {
        typealias Completion = @Sendable (Result<String, SaveFailed>) -> Void
        let load = FuncMock<(id: Int, completion: Completion), Void>("load")
        load.answers { input in input.completion(input.id == 0 ? .failure(SaveFailed()) : .success("item \(input.id)"))
        }
        let results = Mutex<[Result<String, SaveFailed>]>([])
        load.call((1, { result in results.withLock { $0.append(result) } }))
        load.call((0, { result in results.withLock { $0.append(result) } }))
        #expect(results.withLock { $0 } == [.success("item 1"), .failure(SaveFailed())])
        #expect(load.calls.map(\.id) == [1, 0])
    }

    @Test("a mock's count expectation reports its calls")
    func mockExpectationMessage() {
        let api = MockWeatherAPI()
        api.forecastMock.returns("rain")
        withKnownIssue {
            withMischiefScope {
                expect(api.forecastMock, .never)
                _ = api.forecastMock.call("Oslo")
            }
        } matching: { issue in
            text(of: issue).contains(
                "Expected forecast to be called never, but it was called 1 time.\nIts calls:\n  #0 Oslo")
        }
    }

    @Test(.mischief())
    func mockCallsAreOrderedAmongSeamCalls() async throws {
        let api = MockWeatherAPI()
        api.forecastMock.returns("sunny")
        api.saveMock.throws(SaveFailed())
        expect(Seams.double, calledBefore: api.forecastMock)
        expect(api.forecastMock, calledBefore: api.saveMock)
        _ = Seams.double(1)
        #expect(await api.forecast(for: "Oslo") == "sunny")
        #expect(throws: SaveFailed.self) { try api.save("sunny") }
        let calls = try #require(ChaosScope.current).calls
        #expect(calls.map(\.seam) == ["testing.double", "mock.forecast", "mock.save"])
        #expect(calls[1].description == #"#1 mock.forecast("Oslo") → "sunny" [mock]"#)
        #expect(calls[2].description.hasPrefix(#"#2 mock.save("sunny") → threw"#))
    }

    @Test func anOrderThatDidNotHappenNamesTheMock() {
        withKnownIssue {
            withMischiefScope {
                let api = MockWeatherAPI()
                api.saveMock.returns(())
                expect(api.saveMock, calledBefore: Seams.double)
                _ = Seams.double(1)
                try? api.save("late")
            }
        } matching: { issue in
            issue.description.contains(
                "Expected mock.save to be called before testing.double, but testing.double was called first")
        }
    }
}
