#if os(Linux)
    import CMischiefRebind
    import Foundation
    import Glibc
    import MischiefTestSupport
    import Synchronization
    import Testing

    /// How far from the expected second an answer may be on a loaded machine.
    private let slack = 5

    /// Whether `value` is within `slack` of `expected`.
    private func near(_ value: Int, _ expected: Int) -> Bool { abs(value - expected) <= slack }

    /// The GOT slots of the fixtures and what they hold.
    private func slotValues(_ fixtures: [Fixture]) -> [UnsafeMutableRawPointer: UnsafeMutableRawPointer?] {
        var values: [UnsafeMutableRawPointer: UnsafeMutableRawPointer?] = [:]
        for fixture in fixtures {
            for slot in fixture.slots("time") + fixture.slots("clock_gettime") {
                values[slot] = slot.load(as: UnsafeMutableRawPointer?.self)
            }
        }
        return values
    }

    // One at a time: the rebound slots are one table for the whole process, and restore empties all of it.
    @Suite("GOT rebinding on fixture libraries", .serialized)
    struct RebindTests {
        @Test("time and clock_gettime answer a day later in every fixture; the originals are the real functions")
        func shiftsTheFixturesClock() async throws {
            let directory = try FixtureDirectory()
            var fixtures: [Fixture] = []
            for linking in Linking.allCases { fixtures.append(try await directory.load("fixture_\(linking)", linking)) }
            defer { _ = mischief_rebind_restore() }
            for fixture in fixtures {
                #expect(fixture.slots("time").count == 1, "\(fixture.path)")
                #expect(fixture.slots("clock_gettime").count == 1, "\(fixture.path)")
                #expect(near(fixture.time(), realNow()), "\(fixture.path) before apply")
            }

            #expect(apply(under: directory.url) == 6)

            for fixture in fixtures {
                #expect(near(fixture.time(), realNow() + day), "\(fixture.path): time")
                #expect(near(fixture.gettimeSeconds(), realNow() + day), "\(fixture.path): clock_gettime")
            }
            #expect(originalTime.pointee == dlsym(nil, "time"))
            #expect(originalGettime.pointee == dlsym(nil, "clock_gettime"))
            #expect(near(unsafeBitCast(originalTime.pointee!, to: TimeFunction.self)(nil), realNow()))
            // This process's own clock is not the fixtures'.
            #expect(near(Int(Date().timeIntervalSince1970), realNow()))
            // Again: every slot holds its replacement already.
            #expect(apply(under: directory.url) == 0)
            #expect(mischief_rebind_restore() == 6)
        }

        @Test("restore puts back exactly what each slot held, and read-only pages are read-only again")
        func restoreIsExact() async throws {
            let directory = try FixtureDirectory()
            var fixtures: [Fixture] = []
            for linking in Linking.allCases { fixtures.append(try await directory.load("fixture_\(linking)", linking)) }
            defer { _ = mischief_rebind_restore() }
            let before = slotValues(fixtures)
            let lazySlot = fixtures[0].slots("time")[0]
            let readOnlySlots = [fixtures[1].slots("time")[0], fixtures[2].slots("clock_gettime")[0]]
            // The premise: full RELRO made these read-only; the lazy fixture's .got.plt is writable.
            for slot in readOnlySlots { #expect(try permissions(at: slot).hasPrefix("r--"), "\(slot) before") }
            #expect(try permissions(at: lazySlot).hasPrefix("rw-"))

            #expect(apply(under: directory.url) == Int32(before.count))
            for (slot, value) in slotValues(fixtures) { #expect(value != before[slot]!, "\(slot) was not rebound") }
            for slot in readOnlySlots { #expect(try permissions(at: slot).hasPrefix("r--"), "\(slot) after apply") }

            #expect(mischief_rebind_restore() == Int32(before.count))
            #expect(slotValues(fixtures) == before)
            for slot in readOnlySlots { #expect(try permissions(at: slot).hasPrefix("r--"), "\(slot) after restore") }
            #expect(try permissions(at: lazySlot).hasPrefix("rw-"))
            for fixture in fixtures {
                #expect(near(fixture.time(), realNow()), "\(fixture.path): time")
                #expect(near(fixture.gettimeSeconds(), realNow()), "\(fixture.path): clock_gettime")
            }
            #expect(mischief_rebind_restore() == 0)
        }

        @Test("a library dlopen'ed after apply is noticed, and applying again covers it")
        func laterLibrary() async throws {
            let directory = try FixtureDirectory()
            let first = try await directory.load("fixture_first", .now)
            let latePath = try await directory.build("fixture_late", .now)
            defer { _ = mischief_rebind_restore() }
            // Another suite of this process may dlopen something between an apply and the check: apply until none did.
            try await Poll.until("an apply with no object loaded or unloaded after it", lastSeen: { "" }) {
                apply(under: directory.url) >= 0 && mischief_rebind_objects_changed() == 0 ? true : nil
            }
            #expect(near(first.time(), realNow() + day))

            let late = try Fixture(path: latePath, mode: RTLD_NOW | RTLD_LOCAL)
            #expect(mischief_rebind_objects_changed() != 0)
            #expect(near(late.time(), realNow()), "not covered before applying again")

            #expect(apply(under: directory.url) == 2, "only the late library's two slots are new")
            #expect(near(late.time(), realNow() + day))
            #expect(near(late.gettimeSeconds(), realNow() + day))
            #expect(near(first.time(), realNow() + day))
            #expect(mischief_rebind_restore() == 4)
            #expect(near(late.time(), realNow()))
        }

        @Test("coverage counts each fixture's slots and those rebound, and marks the runtime's libraries excluded")
        func coverageReport() async throws {
            let directory = try FixtureDirectory()
            let lazy = try await directory.load("fixture_lazy", .lazy)
            let now = try await directory.load("fixture_now", .now)
            defer { _ = mischief_rebind_restore() }
            #expect(apply(under: directory.url) == 4)

            let applied = coverage()
            for fixture in [lazy, now] {
                #expect(
                    applied.filter { $0.path == fixture.path }
                        == [Covered(path: fixture.path, slots: 2, rebound: 2, excluded: false)])
            }
            let basename = { (object: Covered) in object.path.split(separator: "/").last.map(String.init) ?? "" }
            for prefix in ["libdispatch.so", "libswift_Concurrency.so", "libc.so.6"] {
                let objects = applied.filter { basename($0).hasPrefix(prefix) }
                #expect(!objects.isEmpty, "\(prefix) is loaded in a Swift Testing process")
                #expect(objects.allSatisfy { $0.excluded }, "\(prefix) is excluded by default")
                #expect(objects.allSatisfy { $0.rebound == 0 }, "\(prefix) is not rebound")
            }
            // The test binary holds the rebinding code: its own object, always skipped.
            #expect(applied.filter { $0.path.isEmpty }.map(\.excluded) == [true])

            #expect(mischief_rebind_restore() == 4)
            let restored = coverage()
            for fixture in [lazy, now] {
                #expect(
                    restored.filter { $0.path == fixture.path }
                        == [Covered(path: fixture.path, slots: 2, rebound: 0, excluded: false)])
            }
        }

        @Test(
            "a lazily bound slot gets its PLT stub back, not the function it would have been bound to",
            .enabled(if: ProcessInfo.processInfo.environment["LD_BIND_NOW"] == nil, "LD_BIND_NOW binds every slot"))
        func lazySlotGetsItsStubBack() async throws {
            let directory = try FixtureDirectory()
            let lazy = try await directory.load("fixture_lazy", .lazy, mode: RTLD_LAZY | RTLD_LOCAL)
            defer { _ = mischief_rebind_restore() }
            let slot = lazy.slots("clock_gettime")[0]
            let stub = slot.load(as: UnsafeMutableRawPointer?.self)!
            // Not called yet: the slot points back into the fixture's own PLT.
            #expect(try mappedPath(at: stub) == lazy.path)

            #expect(apply(under: directory.url) == 2)
            #expect(slot.load(as: UnsafeMutableRawPointer?.self) == shiftedGettimeAddress)
            // The original came from dlsym, not from the slot: the real function, in the C library.
            #expect(originalGettime.pointee != stub)
            #expect(try mappedPath(at: originalGettime.pointee!) != lazy.path)
            #expect(near(lazy.gettimeSeconds(), realNow() + day))

            #expect(mischief_rebind_restore() == 2)
            #expect(slot.load(as: UnsafeMutableRawPointer?.self) == stub)
            // The stub still works: the first call binds the slot to the real function.
            #expect(near(lazy.gettimeSeconds(), realNow()))
            #expect(try mappedPath(at: slot.load(as: UnsafeMutableRawPointer?.self)!) != lazy.path)
        }

        @Test("threads calling through the slots see the real clock or the day-late one, never anything else")
        func concurrentCallers() async throws {
            let directory = try FixtureDirectory()
            let readers = Readers(fixtures: [
                try await directory.load("fixture_lazy", .lazy), try await directory.load("fixture_now", .now),
            ])
            defer {
                readers.stop.store(true, ordering: .releasing)
                _ = mischief_rebind_restore()
            }
            for index in 0..<Readers.count {
                Thread.detachNewThread { readers.read(with: index % readers.fixtures.count) }
            }
            try await Poll.until("the \(Readers.count) readers to read", lastSeen: { readers.summary }) {
                readers.started.load(ordering: .acquiring) == Readers.count ? true : nil
            }

            var unexpected: [String] = []
            for cycle in 0..<1_000 {
                let written = apply(under: directory.url)
                let restored = mischief_rebind_restore()
                if written != 4 || restored != 4 { unexpected.append("cycle \(cycle): \(written), \(restored)") }
            }
            #expect(unexpected.isEmpty, "every cycle writes and restores the 4 slots")

            // Held once: the readers see the day-late clock, then the real one again.
            #expect(apply(under: directory.url) == 4)
            let seen = readers.shifted.load(ordering: .acquiring)
            try await Poll.until("a reader to see the day-late clock", lastSeen: { readers.summary }) {
                readers.shifted.load(ordering: .acquiring) > seen ? true : nil
            }
            #expect(mischief_rebind_restore() == 4)
            let real = readers.real.load(ordering: .acquiring)
            try await Poll.until("a reader to see the real clock again", lastSeen: { readers.summary }) {
                readers.real.load(ordering: .acquiring) > real ? true : nil
            }

            readers.stop.store(true, ordering: .releasing)
            try await Poll.until("the readers to stop", lastSeen: { readers.summary }) {
                readers.finished.load(ordering: .acquiring) == Readers.count ? true : nil
            }
            #expect(readers.wrong.withLock { $0 }.isEmpty)
        }
    }

    /// Threads reading the fixtures' clock_gettime in a loop and sorting each answer: real, a day late, or wrong. They
    /// hold the fixtures, so no library is unloaded under a thread still calling it.
    private final class Readers: Sendable {
        static let count = 4
        nonisolated(unsafe) let fixtures: [Fixture]
        let stop = Atomic(false)
        let started = Atomic(0)
        let finished = Atomic(0)
        let real = Atomic(0)
        let shifted = Atomic(0)
        let wrong = Mutex<[String]>([])

        init(fixtures: [Fixture]) { self.fixtures = fixtures }

        var summary: String {
            "started \(started.load(ordering: .acquiring)), real \(real.load(ordering: .acquiring)), "
                + "shifted \(shifted.load(ordering: .acquiring)), finished \(finished.load(ordering: .acquiring))"
        }

        /// Reads until stopped.
        func read(with fixture: Int) {
            var first = true
            while !stop.load(ordering: .acquiring) {
                let before = realNow()
                let reading = fixtures[fixture].gettimeSeconds()
                let after = realNow()
                if reading >= before - 1 && reading <= after + 1 {
                    real.add(1, ordering: .releasing)
                } else if reading >= before + day - 1 && reading <= after + day + 1 {
                    shifted.add(1, ordering: .releasing)
                } else {
                    wrong.withLock { $0.append("\(reading) between \(before) and \(after)") }
                }
                if first {
                    first = false
                    started.add(1, ordering: .releasing)
                }
            }
            finished.add(1, ordering: .releasing)
        }
    }
#endif
