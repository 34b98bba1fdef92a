import Foundation
import Mischief

/// The control API's version, limits and the JSON values it sends and receives.
///
/// Every route starts with `/v1`; a client sends `Mischief-API: 1` and a target that speaks another version
/// answers 426. JSON is the only response format; requests that carry a profile may be YAML (JSON is YAML too).
public enum ControlAPI {
    /// The API version this library serves and speaks.
    public static let version = 1
    /// The Mischief library's version, reported by `GET /v1/target`.
    public static let libraryVersion = "0.4.0"
    /// The header a client names its API version in.
    public static let versionHeader = "Mischief-API"
    /// The header that names the session a change belongs to (also `?session=`).
    public static let sessionHeader = "Mischief-Session"
    /// The header a client names itself in (`mischief CLI`), for the source of the changes it makes without a
    /// session: an event or a layer then says who made it rather than `api`.
    public static let clientHeader = "Mischief-Client"
    /// The header of an answer to a request that changed the target: the registry generation the change produced,
    /// which the events stream's `changes` messages reach (a console waits on the stream for it, not asking again).
    public static let generationHeader = "Mischief-Generation"
    /// The largest request body the target reads; larger ones get 413.
    public static let maxBodyBytes = 1 << 20
}

/// `GET /v1/seams/{id}`: one seam, with the layers applied to it and the sessions that own them.
public struct SeamDetail: Sendable, Codable, Equatable {
    /// The seam: definition, actions, active spec and description, counters and revert status.
    public var seam: SeamSnapshot
    /// The seam's layers, oldest first, each with the session that owns it; the last one wins on a replacing seam.
    public var layers: [LayerSnapshot]

    /// An answer for `seam` with its `layers`, oldest first.
    public init(seam: SeamSnapshot, layers: [LayerSnapshot]) {
        self.seam = seam
        self.layers = layers
    }
}

/// `PUT /v1/seams/{id}` as JSON: `{"spec": "shift(+1d)"}`, with `"ttl": 30` (or `"ttl": "30s"`) for a change
/// that the target reverts by itself when its time to live runs out.
public struct ApplyRequest: Sendable, Codable, Equatable {
    /// The behaviour to apply, as spec text (`shift(+1d)`); the target parses it against the seam's own actions.
    public var spec: String
    /// How long the change lasts; nil until reverted.
    public var ttl: TTLValue?
    /// The seed for the change's random parts, which the target derives its own from with its label
    /// (`TargetHeader.label`); the target's session seed when nil.
    public var seed: UInt64?

    /// A request to apply `spec`, lasting `ttl` (until reverted when nil), its random parts seeded from `seed`.
    public init(spec: String, ttl: TTLValue? = nil, seed: UInt64? = nil) {
        self.spec = spec
        self.ttl = ttl
        self.seed = seed
    }
}

/// `POST /v1/seams/{id}/ttl`: `{"ttl": 30}` gives the seam's layers 30 seconds from now, `{"ttl": null}` lets them
/// last until reverted.
public struct TTLRequest: Sendable, Codable, Equatable {
    /// The time to live from now; nil for none.
    public var ttl: TTLValue?

    /// A request that gives the seam's layers `ttl` from now, or (nil) lets them last until reverted.
    public init(ttl: TTLValue?) { self.ttl = ttl }

    private enum CodingKeys: String, CodingKey { case ttl }

    /// Decodes the request; `ttl` must be there (null to take the time to live away), so `{}` is not a mistake
    /// that clears it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.ttl) else {
            throw DecodingError.keyNotFound(
                CodingKeys.ttl, .init(codingPath: [], debugDescription: "send {\"ttl\": seconds} or {\"ttl\": null}"))
        }
        ttl = try container.decodeIfPresent(TTLValue.self, forKey: .ttl)
    }

    /// Encodes the request, `ttl` as null when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ttl, forKey: .ttl)
    }
}

/// A time to live as the control API takes it: a number of seconds (`30`, `1.5`) or a spec duration (`"30s"`,
/// `"10m"`). The target checks it: more than zero and at most a day.
public enum TTLValue: Sendable, Codable, Equatable {
    /// A number of seconds.
    case seconds(Double)
    /// A spec duration, such as `30s` or `10m`.
    case text(String)

    /// `duration` as a number of seconds.
    public init(_ duration: Duration) { self = .seconds(duration.seconds) }

    /// Decodes a number or a text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            self = .seconds(seconds)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            throw DecodingError.typeMismatch(
                Double.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a ttl is a number of seconds or a duration such as \"30s\""))
        }
    }

    /// Encodes the number or the text as it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .seconds(let seconds): try container.encode(seconds)
        case .text(let text): try container.encode(text)
        }
    }

    /// The time to live, checked as the registry checks it.
    ///
    /// - Throws: A message naming the problem, for a 400.
    public func duration() throws(TTLValue.Invalid) -> Duration {
        let duration: Duration
        switch self {
        case .seconds(let seconds):
            do throws(OutOfRange) {
                duration = try Seconds.duration(
                    seconds, field: "ttl", within: Seconds.positive(upTo: Registry.longestTTL.seconds))
            } catch {
                throw Invalid(description: error.description)
            }
        case .text(let text):
            do throws(SpecError) {
                duration = try SpecDuration(parsing: text).duration
            } catch {
                throw Invalid(description: "ttl: \(error.message)")
            }
        }
        do throws(MischiefError) {
            try Registry.check(ttl: duration)
        } catch {
            throw Invalid(description: error.description)
        }
        return duration
    }

    /// Why a time to live was refused.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// What is wrong with it.
        public var description: String
    }
}

/// `POST /v1/sessions`: what a console asks for.
public struct SessionRequest: Sendable, Codable, Equatable {
    /// Shown as the source of the session's changes ("console alice").
    public var name: String?
    /// Seconds the session lives without an open events stream or a renewal (default 15).
    public var lease: Double?
    /// Whether the session's changes stay when it ends.
    public var keep: Bool?

    /// A session request; whatever is nil takes the target's default (the name `api`, a 15-second lease, not kept).
    public init(name: String? = nil, lease: Double? = nil, keep: Bool? = nil) {
        self.name = name
        self.lease = lease
        self.keep = keep
    }
}

/// A session as the target reports it.
public struct SessionInfo: Sendable, Codable, Equatable {
    /// The id to send as `Mischief-Session` (or `?session=`).
    public var id: String
    /// The source its changes are logged under.
    public var name: String
    /// Seconds the lease lasts from each renewal.
    public var lease: Double
    /// Whether its changes stay when it ends.
    public var keep: Bool
    /// How many events streams hold it open.
    public var streams: Int
    /// Changes and profiles it owns.
    public var changes: Int

    /// A session's state as the target reports it to the client that opened or renewed it.
    public init(id: String, name: String, lease: Double, keep: Bool, streams: Int, changes: Int) {
        self.id = id
        self.name = name
        self.lease = lease
        self.keep = keep
        self.streams = streams
        self.changes = changes
    }
}

/// `POST /v1/time/advance`: `{"seconds": 3600}`.
public struct AdvanceRequest: Sendable, Codable, Equatable {
    /// How far to move virtual time forward, in seconds; more than 0 and at most a day, or the target answers 400.
    public var seconds: Double

    /// A request to move virtual time forward by `seconds`.
    public init(seconds: Double) { self.seconds = seconds }
}

/// `POST /v1/revert-all`'s answer.
public struct RevertAllResult: Sendable, Codable, Equatable {
    /// How many layers were active before.
    public var reverted: Int

    /// An answer saying `reverted` layers were active before everything was reverted.
    public init(reverted: Int) { self.reverted = reverted }
}

/// `POST /v1/seams/{id}/release`'s body, which may be empty (release the held calls unchanged):
/// `{"answer": "return({\"name\": \"Grace\"})", "holdNext": false}`.
public struct ReleaseRequest: Sendable, Codable, Equatable {
    /// The spec each held call returns or throws instead of going on (any spec of the seam: `return(…)`,
    /// `throw(…)`, a city, a date); nil lets them go on unchanged.
    public var answer: String?
    /// Whether the pause stays and holds the next call (nil: yes); false reverts it so the rest run.
    public var holdNext: Bool?

    /// A release answering with `answer`, holding the next call unless `holdNext` is false.
    public init(answer: String? = nil, holdNext: Bool? = nil) {
        self.answer = answer
        self.holdNext = holdNext
    }
}

/// `POST /v1/seams/{id}/release`'s answer.
public struct ReleaseResult: Sendable, Codable, Equatable {
    /// The seam whose held calls were released.
    public var seam: SeamID
    /// How many held calls were released (0 when none was held).
    public var released: Int

    /// An answer saying `released` held calls on `seam` went on.
    public init(seam: SeamID, released: Int) {
        self.seam = seam
        self.released = released
    }
}

/// `POST /v1/seams/{id}/reset`'s answer.
public struct ResetResult: Sendable, Codable, Equatable {
    /// The seam whose counters were reset.
    public var seam: SeamID
    /// Its counters just before the reset (calls, chaos calls and errors are zero after it; in-flight and held
    /// calls are live and stay).
    public var before: SeamCounters

    /// An answer for `seam`, whose counters were `before`.
    public init(seam: SeamID, before: SeamCounters) {
        self.seam = seam
        self.before = before
    }
}

/// `POST /v1/reset`'s answer.
public struct ResetAllResult: Sendable, Codable, Equatable {
    /// How many seams had calls, chaos calls or errors counted before the reset.
    public var reset: Int

    /// An answer saying `reset` seams had counts.
    public init(reset: Int) { self.reset = reset }
}

/// Every error the API returns: `{"error": "unknown seam", "detail": "…"}`.
public struct ErrorBody: Sendable, Codable, Equatable, Error, CustomStringConvertible {
    /// A short, stable kind of error (`invalid spec`, `unknown seam`, `body too large`, …).
    public var error: String
    /// What went wrong in words; a spec error keeps its caret line.
    public var detail: String
    /// For a spec error, the 1-based column where it went wrong.
    public var column: Int?

    /// An error of kind `error`, explained by `detail`, at `column` of a spec when a spec was at fault.
    public init(error: String, detail: String, column: Int? = nil) {
        self.error = error
        self.detail = detail
        self.column = column
    }

    public var description: String { detail.isEmpty ? error : "\(error): \(detail)" }
}

/// `GET /v1/events`'s first message.
public struct StreamHello: Sendable, Codable, Equatable {
    /// The target the stream is from, so a client knows whom it follows before the first change arrives.
    public var target: TargetHeader
    /// The session the stream holds open, if any.
    public var session: String?

    /// The first message of a stream from `target`, holding `session` open when one was given.
    public init(target: TargetHeader, session: String?) {
        self.target = target
        self.session = session
    }
}

extension JSONEncoder {
    /// The encoder every API answer uses: sorted keys, so answers diff and test well.
    static let control: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()
}

extension JSONDecoder {
    /// The decoder for API answers: dates in ISO 8601, as the target writes them.
    static var control: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
