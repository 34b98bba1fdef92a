#if os(Linux)
    import CMischiefRebind
    import Foundation
    import Glibc
    import MischiefTestSupport

    /// The C source of every fixture library: one function calling `time`, one calling `clock_gettime`, so the slots
    /// rebound are the library's own and this process's clock is never touched.
    private let fixtureSource = """
        #include <time.h>
        long fixture_time(void) { return (long)time(NULL); }
        int fixture_gettime(struct timespec *t) { return clock_gettime(CLOCK_REALTIME, t); }
        """

    /// How a fixture is linked, which decides where its slots are and whether they are writable.
    enum Linking: String, CaseIterable, CustomStringConvertible {
        /// Partial RELRO (`-z relro`): calls through the PLT, JUMP_SLOT slots in the writable `.got.plt`, bound lazily
        /// unless dlopen'ed with RTLD_NOW.
        case lazy
        /// Full RELRO (`-z relro -z now`): JUMP_SLOT slots bound at load time and made read-only.
        case now
        /// Full RELRO and `-fno-plt`: calls through GLOB_DAT slots, read-only.
        case noPLT

        var description: String { rawValue }

        var flags: [String] {
            switch self {
            case .lazy: ["-Wl,-z,relro", "-Wl,-z,lazy"]
            case .now: ["-Wl,-z,relro,-z,now"]
            case .noPLT: ["-fno-plt", "-Wl,-z,relro,-z,now"]
            }
        }
    }

    /// A fixture library built by `clang` and dlopen'ed: its path (as the loader names it), handle and functions.
    final class Fixture {
        let path: String
        let handle: UnsafeMutableRawPointer
        /// `fixture_time`: the library's call to `time`.
        let time: @convention(c) () -> Int
        /// `fixture_gettime`: the library's call to `clock_gettime(CLOCK_REALTIME, …)`.
        let gettime: @convention(c) (UnsafeMutablePointer<timespec>?) -> Int32

        init(path: String, mode: Int32) throws {
            guard let handle = dlopen(path, mode) else {
                throw Poll.Failure(description: "dlopen \(path): \(String(cString: dlerror()))")
            }
            guard let time = dlsym(handle, "fixture_time"), let gettime = dlsym(handle, "fixture_gettime") else {
                dlclose(handle)
                throw Poll.Failure(description: "\(path) lacks its fixture functions")
            }
            self.path = path
            self.handle = handle
            self.time = unsafeBitCast(time, to: (@convention(c) () -> Int).self)
            self.gettime = unsafeBitCast(
                gettime, to: (@convention(c) (UnsafeMutablePointer<timespec>?) -> Int32).self)
        }

        /// The seconds of `fixture_gettime`'s answer.
        func gettimeSeconds() -> Int {
            var now = timespec()
            precondition(gettime(&now) == 0, "fixture_gettime failed")
            return now.tv_sec
        }

        /// The addresses of its GOT slots for `symbol`, as the library lists them.
        func slots(_ symbol: String) -> [UnsafeMutableRawPointer] {
            var buffer = [UnsafeMutableRawPointer?](repeating: nil, count: 16)
            let count = mischief_rebind_slots_of(path, symbol, &buffer, buffer.count)
            precondition(count >= 0 && count <= buffer.count, "slots of \(symbol) in \(path): \(count)")
            return buffer.prefix(Int(count)).map { $0! }
        }

        deinit { dlclose(handle) }
    }

    /// A directory of fixture libraries for one test, removed at the end.
    final class FixtureDirectory {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "mischief-rebind-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try fixtureSource.write(to: url.appendingPathComponent("fixture.c"), atomically: true, encoding: .utf8)
        }

        /// Builds `lib<name>.so` linked as `linking`, within a deadline, and returns its path.
        func build(_ name: String, _ linking: Linking) async throws -> String {
            let library = url.appendingPathComponent("lib\(name).so").path
            let arguments =
                ["-shared", "-fPIC", "-O1", "-o", library, url.appendingPathComponent("fixture.c").path]
                + linking.flags
            let child = try ChildProcess.start(
                try Self.compiler(), arguments, environment: ProcessInfo.processInfo.environment,
                output: url.appendingPathComponent("\(name).out"), error: url.appendingPathComponent("\(name).err"))
            defer { child.kill() }
            let status = try await child.waitForExit(timeout: .seconds(120))
            guard status == 0 else {
                throw Poll.Failure(description: "building \(name) failed (\(status)): \(child.errorText)")
            }
            return library
        }

        /// Builds and dlopens a fixture.
        func load(_ name: String, _ linking: Linking, mode: Int32 = RTLD_NOW | RTLD_LOCAL) async throws -> Fixture {
            try Fixture(path: try await build(name, linking), mode: mode)
        }

        /// `clang` from PATH, else the toolchain's, else `cc`.
        static func compiler() throws -> URL {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
            let directories = path.split(separator: ":").map(String.init)
            for name in ["clang", "cc"] {
                for directory in directories + ["/opt/swift/usr/bin", "/usr/bin"] {
                    let candidate = "\(directory)/\(name)"
                    if FileManager.default.isExecutableFile(atPath: candidate) {
                        return URL(fileURLWithPath: candidate)
                    }
                }
            }
            throw Poll.Failure(description: "no clang or cc in PATH (\(path))")
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// The line of /proc/self/maps whose mapping holds `address`, split into its fields: range, permissions ("r--p",
    /// "rw-p"), offset, device, inode and path.
    func mapping(at address: UnsafeRawPointer) throws -> [String] {
        guard let file = FileHandle(forReadingAtPath: "/proc/self/maps") else {
            throw Poll.Failure(description: "cannot read /proc/self/maps")
        }
        defer { try? file.close() }
        let maps = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        let target = UInt(bitPattern: address)
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let range = fields[0].split(separator: "-")
            guard fields.count >= 2, range.count == 2, let start = UInt(range[0], radix: 16),
                let end = UInt(range[1], radix: 16)
            else { continue }
            if target >= start && target < end { return fields }
        }
        throw Poll.Failure(description: "\(address) is in no mapping")
    }

    /// The permissions of the mapping holding `address` ("r--p", "rw-p").
    func permissions(at address: UnsafeRawPointer) throws -> String { try mapping(at: address)[1] }

    /// The file mapped where `address` is ("" for an anonymous mapping, "[vdso]" for the vDSO).
    func mappedPath(at address: UnsafeRawPointer) throws -> String {
        let fields = try mapping(at: address)
        return fields.count == 6 ? fields[5] : ""
    }
#endif
