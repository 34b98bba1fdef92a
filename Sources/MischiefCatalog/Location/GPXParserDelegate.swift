import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `XMLParser` delegate behind ``GPXTrack/parse(_:file:)``: collects points and the first error.
///
/// Used for one parse on one thread, then read; it is never shared, so it need not be `Sendable`.
///
/// ```swift
/// let reader = GPXParserDelegate(file: "walk.gpx")
/// parser.delegate = reader
/// parser.parse()
/// reader.error ?? reader.trackPoints
/// ```
final class GPXParserDelegate: NSObject, XMLParserDelegate {
    let file: String
    private(set) var trackPoints: [GPXTrack.Point] = []
    private(set) var routePoints: [GPXTrack.Point] = []
    private(set) var trackName: String?
    private(set) var routeName: String?
    private(set) var metadataName: String?
    /// The first problem found; parsing stops there.
    private(set) var error: GPXError?
    /// The first XML syntax error and where the parser was when it reported it.
    private(set) var xmlError: (error: any Error, line: Int, column: Int)?
    /// The last line the parser reached, for errors about the file as a whole.
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

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        let name = Self.localName(elementName)
        let parent = path.last
        let line = parser.lineNumber
        lastLine = max(lastLine, line)
        path.append(name)
        switch name {
        case "trkpt", "rtept":
            guard point == nil else { return fail("<\(name)> inside another point", line: line, parser) }
            guard let latitude = coordinate("lat", of: name, in: attributeDict, limit: 90, line: line, parser),
                  let longitude = coordinate("lon", of: name, in: attributeDict, limit: 180, line: line, parser)
            else { return }
            point = (GPXTrack.Point(latitude: latitude, longitude: longitude), name == "trkpt")
        case "ele" where point != nil && (parent == "trkpt" || parent == "rtept"),
             "time" where point != nil && (parent == "trkpt" || parent == "rtept"),
             "name" where parent == "trk" || parent == "rte" || parent == "metadata":
            capture = (name, line, "")
        default:
            break
        }
    }

    func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        let name = Self.localName(elementName)
        lastLine = max(lastLine, parser.lineNumber)
        if path.last == name { path.removeLast() }
        if let captured = capture, captured.element == name {
            capture = nil
            finish(captured, parentOf: path.last, parser)
            return
        }
        if (name == "trkpt" || name == "rtept"), let finished = point {
            point = nil
            if finished.isTrack {
                trackPoints.append(finished.value)
            } else {
                routePoints.append(finished.value)
            }
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        capture?.text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        capture?.text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        // Read the position now: by the time `parse()` returns, the parser may have moved on (on Linux it
        // reports the end of the document).
        guard xmlError == nil else { return }
        xmlError = (parseError, parser.lineNumber, parser.columnNumber)
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        lastLine = max(lastLine, parser.lineNumber)
    }

    // MARK: - Helpers

    /// Stores the text of a finished `<ele>`, `<time>` or `<name>`.
    private func finish(_ captured: (element: String, line: Int, text: String), parentOf parent: String?,
                        _ parser: XMLParser) {
        let text = captured.text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch captured.element {
        case "ele":
            guard let elevation = Double(text), elevation.isFinite else {
                return fail("<ele> is not a number: \"\(text)\"", line: captured.line, parser)
            }
            point?.value.elevation = elevation
        case "time":
            guard let time = XMLDateTime.parse(text) else {
                return fail(
                    "<time> is not an ISO 8601 date-time like 2024-05-01T09:30:00Z: \"\(text)\"",
                    line: captured.line,
                    parser
                )
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
        _ attribute: String,
        of element: String,
        in attributes: [String: String],
        limit: Double,
        line: Int,
        _ parser: XMLParser
    ) -> Double? {
        guard let raw = attributes[attribute] else {
            fail("<\(element)> has no \(attribute) attribute", line: line, parser)
            return nil
        }
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard let value = Double(text), value.isFinite else {
            fail("<\(element)> \(attribute) is not a number: \"\(raw)\"", line: line, parser)
            return nil
        }
        guard abs(value) <= limit else {
            fail("<\(element)> \(attribute) \(text) is outside ±\(Int(limit))°", line: line, parser)
            return nil
        }
        return value
    }

    /// Records the first error and stops the parser.
    private func fail(_ message: String, line: Int, _ parser: XMLParser) {
        guard error == nil else { return }
        error = GPXError(file: file, line: line, message: message)
        parser.abortParsing()
    }

    /// `gpx:trkpt` → `trkpt`.
    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }
}
