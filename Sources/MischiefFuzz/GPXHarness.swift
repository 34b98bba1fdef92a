import Foundation
import Mischief
import MischiefCatalog

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GPX files: the bytes go to the parser directly, then through a `route(path:)` spec bound with a confined file
/// access (as the control API binds it with `--allow-files`), so the parser is reached, not only the refusal.
///
/// Invariants: nothing crashes; an error has a line (and a column at least 1); a track has points with valid
/// coordinates; the binding fails exactly when the parser does, and with the parser's message.
let gpxHarness = FuzzHarness(name: "gpx", summary: "GPX bytes: parser and confined route(path:)") { buffer in
    let bytes = [UInt8](buffer)
    let direct: Result<GPXTrack, GPXError> = Result { () throws(GPXError) in
        try GPXTrack.parse(bytes, file: "fuzz.gpx")
    }
    switch direct {
    case .success(let track):
        fuzzCheck(!track.points.isEmpty, "a track without points")
        for point in track.points {
            fuzzCheck(abs(point.latitude) <= 90 && abs(point.longitude) <= 180, "coordinate out of range: \(point)")
        }
    case .failure(let error):
        fuzzCheck(error.line >= 0 && (error.column ?? 1) >= 1, "bad position in \(error)")
    }
    GPXFuzzTarget.shared.bind(bytes, expecting: direct)
}

/// A registry with a location seam and a directory the route spec may read; one for the whole run.
final class GPXFuzzTarget: Sendable {
    static let shared = GPXFuzzTarget()

    let registry = Registry(sessionSeed: 1)
    let location = ChaosLocation(
        id: "location.fuzz", now: { Date(timeIntervalSince1970: 1_700_000_000) },
        original: { () throws(LocationError) in throw .unavailable })
    let directory: String
    let access: FileAccess

    private init() {
        var template = Array((NSTemporaryDirectory() + "/mischief-fuzz-gpx-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed: errno \(errno)") }
        directory = String(cString: made)
        access = .confined(to: [directory])
        try! registry.register(location.seam)
    }

    /// Writes `bytes` to `fuzz.gpx` in the allowed directory and binds `route(path: "fuzz.gpx")` to it.
    func bind(_ bytes: [UInt8], expecting direct: Result<GPXTrack, GPXError>) {
        let written = FileManager.default.createFile(atPath: directory + "/fuzz.gpx", contents: Data(bytes))
        fuzzCheck(written, "cannot write the GPX file")
        do throws(MischiefError) {
            let applied = try registry.apply(
                spec: #"route(path: "fuzz.gpx", speed: 10)"#, to: "location.fuzz",
                fileAccess: access)
            if case .failure(let error) = direct { fuzzCheck(false, "bound although the parser said: \(error)") }
            _ = try? location.current()
            registry.revert(applied)
        } catch {
            guard case .invalidSpec(_, let specError) = error else {
                return fuzzCheck(false, "not a spec error: \(error)")
            }
            if case .failure(let parseError) = direct {
                fuzzCheck(
                    specError.message == parseError.description,
                    "binding said \"\(specError.message)\", the parser \"\(parseError)\"")
            }
        }
    }
}
