import Mischief
import MischiefTesting
import XCTest

/// The XCTest form: every test method runs in a scope by wrapping `invokeTest()`.
final class XCTestScopeTests: XCTestCase {
    override func invokeTest() {
        withMischiefScope([.spec("testing.double", "return(11)")], registry: Seams.registry) {
            super.invokeTest()
        }
    }

    func testScopeHoldsForTheMethod() {
        XCTAssertEqual(Seams.double(1), 11)
    }

    func testScopeHoldsForAsyncMethods() async throws {
        XCTAssertEqual(Seams.double(1), 11)
        let fetched = try await Seams.fetch("x")
        XCTAssertEqual(fetched, "body of x")
    }

    func testExpectationsAndStubsWork() {
        stub(Seams.lookup).returns("stubbed")
        expect(Seams.lookup, .exactly(1))
        XCTAssertEqual(Seams.lookup(3), "stubbed")
    }
}
