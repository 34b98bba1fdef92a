import Foundation
import MischiefFiles
import Testing

@Suite struct SearchPathTests {
    @Test func profilesFollowTheDocumentedOrder() {
        let environment = ["MISCHIEF_PROFILES": "/env/one::/env/two", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"]
        let paths = SearchPath.profiles(
            explicit: ["/cli/a", "rel"], environment: environment,
            currentDirectory: "/work")
        #expect(
            paths.map(\.path) == [
                "/cli/a", "/work/rel", "/env/one", "/env/two", "/xdg/mischief/profiles",
                "/work/profiles",
            ])
    }

    @Test func profilesFallBackToHome() {
        let paths = SearchPath.profiles(explicit: [], environment: ["HOME": "/home/u"], currentDirectory: "/work")
        #expect(paths.map(\.path) == ["/home/u/.config/mischief/profiles", "/work/profiles"])
        let bare = SearchPath.profiles(explicit: [], environment: [:], currentDirectory: "/work")
        #expect(bare.map(\.path) == ["/work/profiles"])
        let repeated = SearchPath.profiles(explicit: ["/work/profiles"], environment: [:], currentDirectory: "/work")
        #expect(repeated.map(\.path) == ["/work/profiles"])
    }

    @Test func themesFollowTheDocumentedOrder() {
        let environment = ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u", "MISCHIEF_PROFILES": "/ignored"]
        let paths = SearchPath.themes(explicit: ["/cli"], environment: environment, currentDirectory: "/work")
        #expect(paths.map(\.path) == ["/cli", "/xdg/mischief/themes", "/work/themes"])
        let home = SearchPath.themes(explicit: [], environment: ["HOME": "/h"], currentDirectory: "/w")
        #expect(home.map(\.path) == ["/h/.config/mischief/themes", "/w/themes"])
    }

    @Test func listsYAMLFilesInOrder() throws {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appendingPathComponent("mischief-search-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: root) }
        let first = root.appendingPathComponent("first"), second = root.appendingPathComponent("second")
        try manager.createDirectory(at: first, withIntermediateDirectories: true)
        try manager.createDirectory(at: second, withIntermediateDirectories: true)
        try manager.createDirectory(at: first.appendingPathComponent("dir.yaml"), withIntermediateDirectories: true)
        for name in ["b.yaml", "a.yml", "c.txt", ".hidden.yaml", "C.YAML"] {
            try Data().write(to: first.appendingPathComponent(name))
        }
        try Data().write(to: second.appendingPathComponent("0.yaml"))
        let notADirectory = first.appendingPathComponent("c.txt")
        let missing = root.appendingPathComponent("missing")

        let (files, problems) = SearchPath.files(in: [first, missing, second, notADirectory, first])
        #expect(
            files.map { "\($0.deletingLastPathComponent().lastPathComponent)/\($0.lastPathComponent)" } == [
                "first/C.YAML", "first/a.yml", "first/b.yaml", "second/0.yaml",
            ])
        #expect(
            problems.map(\.description) == [
                "\(notADirectory.path): error: cannot list the directory: it is a file"
            ])
    }
}
