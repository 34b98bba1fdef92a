#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Who the target is and what time it is there: the header of a console, of the control API's deltas
/// (`GET /v1/changes`, the events stream) and, with how the target serves (versions, socket, instance, label), the
/// answer of `GET /v1/target`, its events stream's `hello` and its status: one type for all of them (MischiefControl's
/// deprecated alias names the other it was).
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
    /// The control API version the target serves; nil in a delta's header.
    public var apiVersion: Int?
    /// The Mischief library version the target links; nil in a delta's header.
    public var libraryVersion: String?
    /// The socket the target serves on; nil in a delta's header.
    public var socket: String?
    /// The serving process's random instance id: a client reconnects only to the same instance.
    public var instance: String?
    /// The target's label among targets of its name, which seeds sent with changes are derived with.
    public var label: String?

    /// Creates a header; the control server fills in how the target serves (`apiVersion` … `label`).
    public init(
        name: String, pid: Int32, uptime: Duration, sessionSeed: UInt64, wallTime: Date, targetTime: Date? = nil,
        apiVersion: Int? = nil, libraryVersion: String? = nil, socket: String? = nil, instance: String? = nil,
        label: String? = nil
    ) {
        self.name = name
        self.pid = pid
        self.uptime = uptime
        self.sessionSeed = sessionSeed
        self.wallTime = wallTime
        self.targetTime = targetTime
        self.apiVersion = apiVersion
        self.libraryVersion = libraryVersion
        self.socket = socket
        self.instance = instance
        self.label = label
    }

    private enum CodingKeys: String, CodingKey {
        case name, pid, uptime, sessionSeed, wallTime, targetTime, apiVersion, libraryVersion, socket, instance, label
    }

    /// Decodes a header whose `uptime` is in seconds. A `GET /v1/target` answer of an older target has no
    /// `wallTime`, and a decoder without the control API's date strategy (ISO 8601) cannot read one: the header's
    /// `wallTime` is then the time it is read, and its `targetTime` nil, so such a reader reads the rest as before.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name), pid: try container.decode(Int32.self, forKey: .pid),
            uptime: try container.decodeSeconds(forKey: .uptime),
            sessionSeed: try container.decode(UInt64.self, forKey: .sessionSeed),
            wallTime: (try? container.decodeIfPresent(Date.self, forKey: .wallTime)) ?? Date(),
            targetTime: (try? container.decodeIfPresent(Date.self, forKey: .targetTime)) ?? nil,
            apiVersion: try container.decodeIfPresent(Int.self, forKey: .apiVersion),
            libraryVersion: try container.decodeIfPresent(String.self, forKey: .libraryVersion),
            socket: try container.decodeIfPresent(String.self, forKey: .socket),
            instance: try container.decodeIfPresent(String.self, forKey: .instance),
            label: try container.decodeIfPresent(String.self, forKey: .label))
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
        try container.encodeIfPresent(apiVersion, forKey: .apiVersion)
        try container.encodeIfPresent(libraryVersion, forKey: .libraryVersion)
        try container.encodeIfPresent(socket, forKey: .socket)
        try container.encodeIfPresent(instance, forKey: .instance)
        try container.encodeIfPresent(label, forKey: .label)
    }
}
