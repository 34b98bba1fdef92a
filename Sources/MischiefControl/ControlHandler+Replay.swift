import Foundation
import Mischief

extension ControlHandler {
    /// `POST /v1/replay`: the recording's JSON Lines in the body, read (on the worker, for a long one) before the
    /// replay starts; a line that is not a recording's is 400 naming it. `?timeout=SECONDS` bounds the wait for a
    /// step's calls (by default derived from the recording: ``ReplaySchedule/derivedTimeout``).
    func replayRequest(_ request: APIRequest) throws(APIFailure) -> Reply {
        let text = try bodyText(request)
        let recording: Recording
        do throws(RecordingError) {
            recording = try Recording(jsonLines: text)
        } catch {
            throw APIFailure(.badRequest, "invalid recording", error.description)
        }
        var timeout: Duration?
        if let value = request.query["timeout"] {
            guard let seconds = Double(value) else {
                throw APIFailure(.badRequest, "invalid timeout", "timeout=\(value) is not a number of seconds")
            }
            do throws(OutOfRange) {
                timeout = try Seconds.duration(seconds, field: "timeout", within: Seconds.positive(upTo: 86_400))
            } catch {
                throw APIFailure("invalid timeout", error)
            }
        }
        return .replay(recording, timeout: timeout)
    }

    /// Replays `recording` on the registry, with the server's `advance` for recorded advances of time and its
    /// file access for the specs, and answers with the ``ReplayOutcome`` (200 whether it matched or diverged), or 409
    /// when another replay runs on one of its seams (it never started).
    func replay(_ recording: Recording, timeout: Duration?) async -> APIResponse {
        let options = ReplayOptions(
            timeout: timeout, advance: self.options.advance, fileAccess: self.options.fileAccess)
        let outcome = await registry.replay(recording, options: options)
        if let refusal = outcome.divergence, refusal.refused == true {
            return APIFailure(.conflict, "replay running", refusal.replayed).response
        }
        return .json(outcome)
    }
}
