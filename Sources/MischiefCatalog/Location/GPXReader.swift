import Foundation

/// Reads the points and names of a GPX document from ``XMLTokenizer``'s tokens, behind ``GPXTrack/parse(_:file:)``.
///
/// Used for one parse, then read.
///
/// ```swift
/// var reader = GPXReader(file: "walk.gpx")
/// try reader.read(bytes)
/// reader.trackPoints
/// ```
struct GPXReader {
    let file: String
    private(set) var trackPoints: [GPXTrack.Point] = []
    private(set) var routePoints: [GPXTrack.Point] = []
    private(set) var trackName: String?
    private(set) var routeName: String?
    private(set) var metadataName: String?
    /// The last line an element started or ended on, for errors about the file as a whole.
    private(set) var lastLine = 1

    /// The open elements, by local name (prefix stripped).
    private var path: [String] = []
    /// The point being read, and whether it is a track point (else a route point).
    private var point: (value: GPXTrack.Point, isTrack: Bool)?
    /// Text being collected for `<ele>`, `<time>` or `<name>`, with the line its element started on.
    private var capture: (element: String, line: Int, text: String)?

    init(file: String) {
        self.file = file
    }

    /// Reads the whole document.
    ///
    /// - Throws: ``GPXError`` at the line and column of malformed XML ("malformed XML: …"), or at the element's line
    ///   for a point without a valid `lat`/`lon` or with a bad `<ele>`/`<time>`.
    mutating func read(_ bytes: [UInt8]) throws(GPXError) {
        var tokenizer: XMLTokenizer
        do throws(XMLSyntaxError) {
            tokenizer = try XMLTokenizer(bytes)
        } catch {
            throw malformed(error)
        }
        while true {
            let token: XMLTokenizer.Token?
            do throws(XMLSyntaxError) {
                token = try tokenizer.next()
            } catch {
                throw malformed(error)
            }
            switch token {
            case nil: return
            case .start(let name, let attributes, let line)?: try start(Self.localName(name), attributes, line: line)
            case .end(let name, let line)?: try end(Self.localName(name), line: line)
            case .text(let text)?: capture?.text += text
            }
        }
    }

    private func malformed(_ error: XMLSyntaxError) -> GPXError {
        GPXError(file: file, line: error.line, column: error.column, message: "malformed XML: \(error.message)")
    }

    private mutating func start(
        _ name: String, _ attributes: [XMLTokenizer.Attribute], line: Int
    ) throws(GPXError) {
        let parent = path.last
        lastLine = max(lastLine, line)
        path.append(name)
        switch name {
        case "trkpt", "rtept":
            guard point == nil else {
                throw GPXError(file: file, line: line, message: "<\(name)> inside another point")
            }
            let latitude = try coordinate("lat", of: name, in: attributes, limit: 90, line: line)
            let longitude = try coordinate("lon", of: name, in: attributes, limit: 180, line: line)
            point = (GPXTrack.Point(latitude: latitude, longitude: longitude), name == "trkpt")
        case "ele" where point != nil && (parent == "trkpt" || parent == "rtept"),
            "time" where point != nil && (parent == "trkpt" || parent == "rtept"),
            "name" where parent == "trk" || parent == "rte" || parent == "metadata":
            capture = (name, line, "")
        default:
            break
        }
    }

    private mutating func end(_ name: String, line: Int) throws(GPXError) {
        lastLine = max(lastLine, line)
        if path.last == name { path.removeLast() }
        if let captured = capture, captured.element == name {
            capture = nil
            try finish(captured, parentOf: path.last)
            return
        }
        if name == "trkpt" || name == "rtept", let finished = point {
            point = nil
            if finished.isTrack {
                trackPoints.append(finished.value)
            } else {
                routePoints.append(finished.value)
            }
        }
    }

    /// Stores the text of a finished `<ele>`, `<time>` or `<name>`.
    private mutating func finish(
        _ captured: (element: String, line: Int, text: String), parentOf parent: String?
    ) throws(GPXError) {
        let text = captured.text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch captured.element {
        case "ele":
            guard let elevation = Double(text), elevation.isFinite else {
                throw GPXError(file: file, line: captured.line, message: "<ele> is not a number: \"\(text)\"")
            }
            point?.value.elevation = elevation
        case "time":
            guard let time = XMLDateTime.parse(text) else {
                throw GPXError(
                    file: file, line: captured.line,
                    message: "<time> is not an ISO 8601 date-time like 2024-05-01T09:30:00Z: \"\(text)\"")
            }
            point?.value.time = time
        default:
            guard !text.isEmpty else { return }
            switch parent {
            case "trk": trackName = trackName ?? text
            case "rte": routeName = routeName ?? text
            default: metadataName = metadataName ?? text
            }
        }
    }

    /// Reads a `lat` or `lon` attribute, failing at `line` when it is missing, not a number or out of range.
    private func coordinate(
        _ attribute: String, of element: String, in attributes: [XMLTokenizer.Attribute], limit: Double, line: Int
    ) throws(GPXError) -> Double {
        guard let raw = attributes.first(where: { $0.name == attribute })?.value else {
            throw GPXError(file: file, line: line, message: "<\(element)> has no \(attribute) attribute")
        }
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard let value = Double(text), value.isFinite else {
            throw GPXError(file: file, line: line, message: "<\(element)> \(attribute) is not a number: \"\(raw)\"")
        }
        guard abs(value) <= limit else {
            throw GPXError(
                file: file, line: line, message: "<\(element)> \(attribute) \(text) is outside ±\(Int(limit))°")
        }
        return value
    }

    /// `gpx:trkpt` → `trkpt`.
    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }
}
