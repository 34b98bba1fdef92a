#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Facts about the target process at one moment: the header of a console and of the control API's deltas
/// (`GET /v1/changes`, the events stream). Who the target is and how it serves is `GET /v1/target`'s `TargetInfo`
/// (MischiefControl).
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

    private enum CodingKeys: String, CodingKey { case name, pid, uptime, sessionSeed, wallTime, targetTime }

    /// Decodes a header whose `uptime` is in seconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name), pid: try container.decode(Int32.self, forKey: .pid),
            uptime: try container.decodeSeconds(forKey: .uptime),
            sessionSeed: try container.decode(UInt64.self, forKey: .sessionSeed),
            wallTime: try container.decode(Date.self, forKey: .wallTime),
            targetTime: try container.decodeIfPresent(Date.self, forKey: .targetTime))
    }

    /// Encodes the header with `uptime` in seconds, which reads well in JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(pid, forKey: .pid)
        try container.encode(uptime.seconds, forKey: .uptime)
        try container.encode(sessionSeed, forKey: .sessionSeed)
        try container.encode(wallTime, forKey: .wallTime)
        try container.encodeIfPresent(targetTime, forKey: .targetTime)
    }
}
