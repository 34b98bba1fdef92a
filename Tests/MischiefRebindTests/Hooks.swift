#if os(Linux)
    import CMischiefRebind
    import Foundation
    import Glibc

    /// A day in seconds: what the replacements add, far beyond any slack a loaded machine needs.
    let day = 86_400

    typealias TimeFunction = @convention(c) (UnsafeMutablePointer<time_t>?) -> time_t
    typealias GettimeFunction = @convention(c) (clockid_t, UnsafeMutablePointer<timespec>?) -> Int32

    /// Where apply puts the real `time` and `clock_gettime`. Pointers of their own, written only by apply (and only
    /// when the value changes), read by the replacements on any thread.
    nonisolated(unsafe) let originalTime = originalSlot()
    nonisolated(unsafe) let originalGettime = originalSlot()

    private func originalSlot() -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        let slot = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)
        slot.initialize(to: nil)
        return slot
    }

    /// `time`, a day late.
    private func shiftedTime(_ result: UnsafeMutablePointer<time_t>?) -> time_t {
        let real = unsafeBitCast(originalTime.pointee!, to: TimeFunction.self)
        let now = real(nil) + day
        result?.pointee = now
        return now
    }

    /// `clock_gettime`, a day late.
    private func shiftedGettime(_ clock: clockid_t, _ result: UnsafeMutablePointer<timespec>?) -> Int32 {
        let real = unsafeBitCast(originalGettime.pointee!, to: GettimeFunction.self)
        let status = real(clock, result)
        if status == 0, let result { result.pointee.tv_sec += day }
        return status
    }

    private let shiftedTimeFunction: TimeFunction = shiftedTime
    private let shiftedGettimeFunction: GettimeFunction = shiftedGettime

    /// The replacements' addresses, as apply writes them into slots.
    nonisolated(unsafe) let shiftedTimeAddress = unsafeBitCast(shiftedTimeFunction, to: UnsafeMutableRawPointer.self)
    nonisolated(unsafe) let shiftedGettimeAddress = unsafeBitCast(
        shiftedGettimeFunction, to: UnsafeMutableRawPointer.self)

    /// The symbol names, as C strings that live as long as the process.
    nonisolated(unsafe) private let timeName = UnsafePointer(strdup("time")!)
    nonisolated(unsafe) private let gettimeName = UnsafePointer(strdup("clock_gettime")!)

    /// `time` and `clock_gettime` moved a day on.
    nonisolated(unsafe) let aDayLater: [mischief_rebinding] = [
        mischief_rebinding(symbol: timeName, replacement: shiftedTimeAddress, original: originalTime),
        mischief_rebinding(symbol: gettimeName, replacement: shiftedGettimeAddress, original: originalGettime),
    ]

    /// Chooses the objects whose path begins with the C string `context`: a test's fixture directory, so this
    /// process's own clock (Foundation, Dispatch, the test runner) is never rebound.
    private let underDirectory: mischief_rebind_filter = { path, context in
        guard let path, let context else { return 0 }
        let prefix = context.assumingMemoryBound(to: CChar.self)
        return strncmp(path, prefix, strlen(prefix)) == 0 ? 1 : 0
    }

    /// Applies `rebindings` to the objects in `directory`; the number of slots written, or -1 with errno.
    func apply(_ rebindings: [mischief_rebinding] = aDayLater, under directory: URL) -> Int32 {
        (directory.path + "/").withCString { prefix in
            mischief_rebind_apply(
                rebindings, rebindings.count, underDirectory, UnsafeMutableRawPointer(mutating: prefix))
        }
    }

    /// One object as coverage reports it.
    struct Covered: Equatable {
        let path: String
        let slots: Int32
        let rebound: Int32
        let excluded: Bool
    }

    /// What `mischief_rebind_coverage` reports for `rebindings`, one entry per loaded object.
    func coverage(_ rebindings: [mischief_rebinding] = aDayLater) -> [Covered] {
        final class Report { var objects: [Covered] = [] }
        let report = Report()
        let visit: mischief_rebind_visit = { path, slots, rebound, excluded, context in
            let report = Unmanaged<Report>.fromOpaque(context!).takeUnretainedValue()
            report.objects.append(
                Covered(path: String(cString: path!), slots: slots, rebound: rebound, excluded: excluded != 0))
        }
        withExtendedLifetime(report) {
            mischief_rebind_coverage(rebindings, rebindings.count, visit, Unmanaged.passUnretained(report).toOpaque())
        }
        return report.objects
    }

    /// This process's real time in seconds: the test binary's own calls are never rebound.
    func realNow() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec
    }
#endif
