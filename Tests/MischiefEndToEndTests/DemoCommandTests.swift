import Foundation
import MischiefTestSupport
import Testing

/// `mischief demo`'s options, checked before anything starts.
@Suite(.oneAtATime) struct DemoCommandTests {
    @Test func allowFilesNeedsExistingDirectoriesAndHeadless() throws {
        let missing = try CLI.run(["demo", "--headless", "--allow-files", "/nonexistent/mischief-files"])
        #expect(missing.status == 64)
        #expect(missing.error.contains("--allow-files: '/nonexistent/mischief-files' is not a directory"))
        let console = try CLI.run(["demo", "--allow-files", NSTemporaryDirectory()])
        #expect(console.status == 64)
        #expect(console.error.contains("--allow-files needs --headless"))
    }
}
