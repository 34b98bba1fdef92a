import Mischief
import Testing

/// An in-memory recording is bounded by bytes as well as by entries (issue 44): a control server records its whole
/// session, and entries carrying long specs must not grow the target without bound.
@Suite struct RecordingBudgetTests {
    let registry = Registry(sessionSeed: 1)
    let text = Seam<Int, String, Never>("t.text", title: "Text", category: "Test", summary: "") { String($0) }

    init() throws {
        try registry.register(text)
    }

    /// A spec of `size` bytes for `t.text`.
    static func spec(_ size: Int) -> String {
        "return(\"" + String(repeating: "a", count: size - 10) + "\")"
    }

    /// What the entries of `recording` hold in text.
    static func textBytes(_ recording: Recording) -> Int {
        recording.entries.reduce(0) { $0 + $1.message.utf8.count + ($1.spec?.utf8.count ?? 0) }
    }

    @Test func manyLargeEntriesStayUnderTheBudgetAndTheRestAreCountedAsDropped() throws {
        // A budget of 128 KiB and specs of 8 KB keep the test quick (a 60 KB spec takes ~0.5 s to apply in a debug
        // build); before the byte budget, the server's recording of 300 applies and reverts of a 60 KB spec kept
        // all 600 entries, 18.6 MB, and dropped none.
        let budget = 128 << 10
        let recorder = registry.startRecording(bytes: budget)
        let spec = Self.spec(8_000)
        for _ in 0..<40 {  // 80 entries, 320 KB by count alone
            try registry.apply(spec: spec, to: "t.text")
            registry.revert(seam: "t.text")
        }
        let recording = recorder.recording
        let kept = Self.textBytes(recording)
        #expect(kept <= budget, "kept \(kept) bytes in \(recording.entries.count) entries")
        #expect(kept > budget - 16_000)  // the budget is used: about one entry and the fixed weights short of it
        #expect(recording.entries.count + (recording.header.dropped ?? 0) == 80)
        #expect((recording.header.dropped ?? 0) > 40)
        // What is kept is the start, whole: every event from the first, none missing, though small reverts would fit.
        let events = recording.entries.map(\.event)
        #expect(events == Array(events.first!..<events.first! + events.count))
    }

    @Test func theDefaultBudgetIs8MiBForEveryRecordingAndTheServers() throws {
        #expect(Mischief.Recorder.memoryBudget == 8 << 20)
        let recorder = registry.startRecording()
        #expect(recorder.byteBudget == 8 << 20)
    }

    @Test func decisionsShareTheBudgetAndArePastItCountedAsDropped() throws {
        let recorder = registry.startRecording(bytes: 4_096, decisions: 1_000)
        try registry.apply(spec: "return(\"" + String(repeating: "b", count: 500) + "\")", to: "t.text")
        for value in 0..<40 { _ = text(value) }  // 40 decisions, each holding the 500-byte value
        let recording = recorder.recording
        let weight = Self.textBytes(recording) + recording.decisions.reduce(0) { $0 + ($1.value?.utf8.count ?? 0) }
        #expect(weight <= 4_096)
        #expect(!recording.decisions.isEmpty)
        #expect(recording.decisions.count + (recording.header.droppedDecisions ?? 0) == 40)
    }
}
