import Logging
import Synchronization

/// A swift-log handler that keeps what it is given, for tests to read.
final class LogCapture: Sendable {
    struct Record: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    private let state = Mutex<[Record]>([])

    var records: [Record] { state.withLock { $0 } }

    /// A logger that writes here, at `level` and above.
    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ record: Record) { state.withLock { $0.append(record) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append(
                Record(
                    level: event.level, message: "\(event.message)",
                    metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
        }
    }
}
