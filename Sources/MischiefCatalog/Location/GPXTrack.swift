import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

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

    /// Parses GPX 1.1 `data`; `file` labels errors.
    ///
    /// - Throws: ``GPXError`` at the XML parser's line for malformed XML, at the element's line for a point
    ///   without a valid `lat`/`lon` or with a bad `<ele>`/`<time>`, and "no track or route points" when the
    ///   file has neither.
    public static func parse(_ data: Data, file: String) throws(GPXError) -> GPXTrack {
        // XMLParser accepts an empty document on some platforms; say plainly what is wrong.
        guard data.contains(where: { !$0.isASCIIWhitespace }) else {
            throw GPXError(file: file, line: 1, message: "the file is empty")
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let reader = GPXParserDelegate(file: file)
        parser.delegate = reader
        let succeeded = parser.parse()
        if let error = reader.error {
            throw error
        }
        if let (xmlError, line, column) = reader.xmlError {
            throw GPXError(file: file, line: max(1, line), column: column > 0 ? column : nil,
                           message: describe(xmlError))
        }
        if !succeeded {
            let reason = parser.parserError.map { describe($0) } ?? "malformed XML"
            let column = parser.columnNumber
            throw GPXError(file: file, line: max(1, parser.lineNumber), column: column > 0 ? column : nil,
                           message: reason)
        }
        let points = reader.trackPoints.isEmpty ? reader.routePoints : reader.trackPoints
        guard !points.isEmpty else {
            throw GPXError(file: file, line: max(1, reader.lastLine), message: "no track or route points")
        }
        let name = reader.trackPoints.isEmpty ? reader.routeName : reader.trackName
        return GPXTrack(name: name ?? reader.metadataName, points: points)
    }

    /// Reads and parses the GPX file at `url`; errors are labelled with the file's path.
    public static func load(contentsOf url: URL) throws(GPXError) -> GPXTrack {
        let label = url.isFileURL ? url.path : url.absoluteString
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw GPXError(file: label, line: 0, message: "cannot read the file: \(error.localizedDescription)")
        }
        return try parse(data, file: label)
    }

    /// A short, human message for an XML parser error.
    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo[NSLocalizedDescriptionKey] as? String, !detail.isEmpty {
            return "malformed XML: \(detail.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
        // Raw libxml2 codes, which Apple's `XMLParser.ErrorCode` shares; the Linux enum's raw values are
        // shifted, so it cannot be used to decode them.
        let reason: String? = switch nsError.code {
        case 3: "the document does not start with an XML element"
        case 4: "the document is empty"
        case 5: "the document ends before its elements are closed"
        case 9, 6, 7, 8: "an invalid character"
        case 14...17, 22, 23, 26, 27: "a bad entity reference (escape '&' as '&amp;')"
        case 38: "'<' inside an attribute value"
        case 39, 40, 41: "an attribute value is missing or not quoted"
        case 42: "an attribute appears twice on one element"
        case 72: "expected '<'"
        case 73: "a tag is missing its closing '>'"
        case 76: "a closing tag does not match the open element"
        case 77, 85: "an element is not closed"
        case 86: "content after the root element"
        default: nil
        }
        if let reason {
            return "malformed XML: \(reason)"
        }
        return "malformed XML (XMLParser error \(nsError.code))"
    }
}

private extension UInt8 {
    /// Whether the byte is an ASCII space, tab, carriage return or line feed.
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
