import Testing
import XCTest

/// Where an expectation or a stub was written, so a failure points there in Swift Testing and XCTest alike.
public struct CallSite: Sendable, CustomStringConvertible {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt

    init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// `Module/File.swift:12:5`.
    public var description: String { "\(fileID):\(line):\(column)" }

    var sourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
    }
}

/// Fails the running test at `site`: a Swift Testing issue inside a `@Test`, an `XCTFail` in an XCTest case.
func fail(_ message: String, at site: CallSite) {
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
    } else {
        XCTFail(message, file: site.filePath, line: site.line)
    }
}
