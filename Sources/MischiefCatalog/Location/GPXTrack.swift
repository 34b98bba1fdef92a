import Foundation
import Mischief

/// A path read from a GPX 1.1 file, ready to be played back by a ``Route``.
///
/// Reads track points (`<trk><trkseg><trkpt lat lon>` with optional `<ele>` and `<time>`) and, when the
/// file has no track points, route points (`<rte><rtept>`). All segments of all tracks are concatenated
/// in document order; waypoints (`<wpt>`) and extensions are ignored. Element prefixes are ignored too,
/// so `<gpx:trkpt>` reads like `<trkpt>`.
///
/// ```swift
/// let track = try GPXTrack.load(contentsOf: URL(fileURLWithPath: "commute.gpx"))
/// let route = try Route(track: track, speed: nil, loop: true)
/// ```
public struct GPXTrack: Hashable, Sendable {
    /// One point of the path.
    public struct Point: Hashable, Sendable {
        /// Latitude in degrees, −90…90.
        public var latitude: Double
        /// Longitude in degrees, −180…180.
        public var longitude: Double
        /// Elevation in metres, from `<ele>`.
        public var elevation: Double?
        /// When the point was recorded, from `<time>`.
        public var time: Date?

        /// Creates a point.
        public init(latitude: Double, longitude: Double, elevation: Double? = nil, time: Date? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
            self.time = time
        }
    }

    /// The first `<name>` of the track or route used, else the `<metadata>` name.
    public var name: String?
    /// The points in playback order.
    public var points: [Point]

    /// Creates a track from points.
    public init(name: String? = nil, points: [Point]) {
        self.name = name
        self.points = points
    }

    /// The largest GPX file read: 8 MiB, some 50,000 points.
    public static let maxBytes = 8 << 20

    /// Parses GPX 1.1 `data`; `file` labels errors.
    ///
    /// - Throws: ``GPXError`` at the line and column of malformed XML, at the element's line for a point without a
    ///   valid `lat`/`lon` or with a bad `<ele>`/`<time>`, and "no track or route points" when the file has neither.
    public static func parse(_ data: Data, file: String) throws(GPXError) -> GPXTrack {
        try parse([UInt8](data), file: file)
    }

    /// Parses the GPX 1.1 document in `bytes` (at most ``maxBytes``); `file` labels errors.
    ///
    /// No input crashes it or takes more than linear time: the bytes never reach a general XML parser.
    public static func parse(_ bytes: [UInt8], file: String) throws(GPXError) -> GPXTrack {
        guard bytes.contains(where: { !$0.isASCIIWhitespace }) else {
            throw GPXError(file: file, line: 1, message: "the file is empty")
        }
        guard bytes.count <= maxBytes else {
            throw GPXError(file: file, line: 0, message: "the file holds more than \(maxBytes >> 20) MiB, the limit")
        }
        var reader = GPXReader(file: file)
        try reader.read(bytes)
        let points = reader.trackPoints.isEmpty ? reader.routePoints : reader.trackPoints
        guard !points.isEmpty else {
            throw GPXError(file: file, line: max(1, reader.lastLine), message: "no track or route points")
        }
        let name = reader.trackPoints.isEmpty ? reader.routeName : reader.trackName
        return GPXTrack(name: name ?? reader.metadataName, points: points)
    }

    /// Reads (a regular file of at most ``maxBytes``) and parses the GPX file at `url`; errors are labelled with
    /// the file's path.
    public static func load(contentsOf url: URL) throws(GPXError) -> GPXTrack {
        let label = url.isFileURL ? url.path : url.absoluteString
        guard url.isFileURL else { throw GPXError(file: label, line: 0, message: "only local files are read") }
        let bytes: [UInt8]
        do throws(FileAccessError) {
            bytes = try FileAccess.unrestricted.read(url.path, limit: maxBytes)
        } catch {
            throw GPXError(file: label, line: 0, message: error.message)
        }
        return try parse(bytes, file: label)
    }
}

private extension UInt8 {
    /// Whether the byte is an ASCII space, tab, carriage return or line feed.
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
