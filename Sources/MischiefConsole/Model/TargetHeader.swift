#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The console header's facts about the target process.
public struct TargetHeader: Sendable, Codable, Equatable {
    /// The target's name (the program, or what it calls itself).
    public var name: String
    /// The target's process id.
    public var pid: Int32
    /// Time since the target's registry started.
    public var uptime: Duration
    /// The seed random behaviours derive theirs from; shown so a session can be replayed.
    public var sessionSeed: UInt64
    /// The real time when the data was taken.
    public var wallTime: Date
    /// The time the target sees (its clock seam, read without counting the call), or nil when it has no clock
    /// seam.
    public var targetTime: Date?

    /// Creates a header.
    public init(
        name: String, pid: Int32, uptime: Duration, sessionSeed: UInt64, wallTime: Date, targetTime: Date? = nil
    ) {
        self.name = name
        self.pid = pid
        self.uptime = uptime
        self.sessionSeed = sessionSeed
        self.wallTime = wallTime
        self.targetTime = targetTime
    }
}
