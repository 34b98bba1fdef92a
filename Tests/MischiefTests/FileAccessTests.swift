import Foundation
import Mischief
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The policy every file-reading action goes through: confinement, regular files only, a size limit, and errors
/// that say nothing about files outside the allowed directories.
@Suite struct FileAccessTests {
    /// A fresh directory with a file `a.txt` ("hello"); removed by `remove()`.
    struct Directory {
        let path: String

        init() throws {
            var template = Array((NSTemporaryDirectory() + "/fa-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
            path = URL(fileURLWithPath: String(cString: made)).standardizedFileURL.path
            try Data("hello".utf8).write(to: URL(fileURLWithPath: path + "/a.txt"))
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    private func failure(_ access: FileAccess, _ path: String, limit: Int? = nil) -> String? {
        do {
            _ = try access.read(path, limit: limit)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func noneRefusesEveryFileWithAHint() throws {
        let directory = try Directory()
        defer { directory.remove() }
        let message = failure(.none, directory.path + "/a.txt")
        #expect(message == "files are not allowed from the control API; start the target with --allow-files DIR")
        #expect(FileAccess.confined(to: []) == .none)
    }

    @Test func anAllowedDirectoryServesItsFilesByAbsoluteOrRelativePath() throws {
        let directory = try Directory()
        defer { directory.remove() }
        let access = FileAccess.confined(to: ["/nonexistent", directory.path])
        #expect(try access.read(directory.path + "/a.txt") == Array("hello".utf8))
        #expect(try access.read("a.txt") == Array("hello".utf8))
        #expect(access.allowedDirectories == ["/nonexistent", directory.path])
    }

    @Test func everythingOutsideGetsOneMessageWithNoPath() throws {
        let directory = try Directory()
        defer { directory.remove() }
        let outside = try Directory()
        defer { outside.remove() }
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/out", withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(
            atPath: directory.path + "/link.txt", withDestinationPath: outside.path + "/a.txt")
        let access = FileAccess.confined(to: [directory.path])
        let attempts = [
            outside.path + "/a.txt", outside.path + "/missing", "link.txt", "out/a.txt", "../" + outside.path,
            directory.path + "/../" + URL(fileURLWithPath: outside.path).lastPathComponent + "/a.txt",
            "/proc/self/environ", "/etc/passwd", "missing",
        ]
        for path in attempts {
            #expect(failure(access, path) == "not readable within the allowed directories", "\(path)")
        }
    }

    @Test func procFilesAreRefusedEvenUnrestricted() {
        let message = failure(.unrestricted, "/proc/self/environ")
        #expect(message?.contains("not a regular file") == true)
        #expect(failure(.confined(to: ["/proc"]), "/proc/self/environ")?.contains("not a regular file") == true)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let directory = try Directory()
        defer { directory.remove() }
        let fifo = directory.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Read on a thread of its own: a blocking open would hang it, not the suite.
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<String?>(nil)
        Thread.detachNewThread {
            result.withLock { $0 = failure(.unrestricted, fifo) }
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 10) == .success
        if !finished {
            // Unblock the reader so the thread ends.
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        #expect(finished, "opening a FIFO blocked")
        #expect(result.withLock { $0 }?.contains("it is a FIFO, not a regular file") == true)
        #expect(failure(.confined(to: [directory.path]), "fifo") == "cannot read it: it is a FIFO, not a regular file")
        #expect(failure(.unrestricted, directory.path)?.contains("a directory") == true)
    }

    @Test func aHugeSparseFileIsRefusedWithoutBeingRead() throws {
        let directory = try Directory()
        defer { directory.remove() }
        let huge = directory.path + "/huge"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 8 << 30) == 0)
        #expect(failure(.unrestricted, huge) == "cannot read '\(huge)': it holds more than 16 MiB, the limit")
        let confined = failure(.confined(to: [directory.path]), "huge")
        #expect(confined == "cannot read it: it holds more than 16 MiB, the limit")
        // Refused from its size: reading 8 GB of zeros first would need 8 GB of memory (no timing asserted here).
    }

    @Test func theLimitIsTheSmallerOfTheCallersAndThePolicys() throws {
        let directory = try Directory()
        defer { directory.remove() }
        let file = directory.path + "/a.txt"
        #expect(try FileAccess.unrestricted.read(file, limit: 5) == Array("hello".utf8))
        let four = failure(.unrestricted, file, limit: 4)
        #expect(four == "cannot read '\(file)': it holds more than 4 bytes, the limit")
        let small = FileAccess.confined(to: [directory.path], maxBytes: 3)
        #expect(failure(small, "a.txt", limit: 100) == "cannot read it: it holds more than 3 bytes, the limit")
    }

    @Test func aMissingFileUnrestrictedSaysWhereRelativePathsStart() {
        let message = failure(.unrestricted, "surely-missing.json")
        #expect(message?.hasPrefix("cannot read 'surely-missing.json': No such file or directory") == true)
        #expect(message?.contains(FileManager.default.currentDirectoryPath) == true)
    }
}
