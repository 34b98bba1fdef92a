import Foundation
import MischiefFiles
import Testing

/// `ProfileSaver` replaces only its own earlier save of the same profile without being told to overwrite.
@Suite struct ProfileSaverTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("saver-\(UUID().uuidString)")
    var url: URL { ProfileSaver.url(forProfile: "Tokyo", in: directory) }
    let yaml = ProfileFile(name: "Tokyo", entries: [.init(seam: "clock.now", spec: "shift(9h)")]).yaml()

    /// Writes `text` where Tokyo is saved.
    func place(_ text: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The refusal `save` throws without `overwrite`, or nil when it saved.
    func refusal() -> ProfileSaveError? {
        do throws(ProfileSaveError) {
            try ProfileSaver.save(yaml: yaml, named: "Tokyo", to: url, overwrite: false)
            return nil
        } catch {
            return error
        }
    }

    @Test func aNewFileIsWrittenWithTheMarkerAndLoadsBack() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(refusal() == nil)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasPrefix(ProfileSaver.marker + "\n"))
        let saved = try ProfileFile.load(contentsOf: url).map { $0.withoutLocations() }
        #expect(saved == [ProfileFile(name: "Tokyo", entries: [.init(seam: "clock.now", spec: "shift(9h)")])])
        #expect(refusal() == nil, "its own save is replaced without a question")
    }

    @Test func everyOtherFileIsKeptAndDescribed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(String, String)] = [
            ("- name: Tokyo\n  entries: {}\n- name: Osaka\n  entries: {}\n", "2 profiles: Tokyo, Osaka"),
            ("name: Tokyo\nentries: {}\n", "1 profile: Tokyo"),  // the same name, but written by hand
            (ProfileSaver.marker + "\nname: TOKYO\nentries: {}\n", "1 profile: TOKYO"),  // another profile
            (
                ProfileSaver.marker + "\n- name: Tokyo\n  entries: {}\n- name: Kyoto\n  entries: {}\n",
                "2 profiles: Tokyo, Kyoto"
            ),  // saved, then a profile added by hand
            ("this: [is not", "not a profile file"),
        ]
        for (text, holding) in cases {
            try place(text)
            #expect(refusal() == .wouldReplace(file: "tokyo.yaml", holding: holding))
            #expect(try String(contentsOf: url, encoding: .utf8) == text, "kept: \(holding)")
        }
        try ProfileSaver.save(yaml: yaml, named: "Tokyo", to: url, overwrite: true)
        #expect(try ProfileFile.load(contentsOf: url).map(\.name) == ["Tokyo"])
        #expect(
            ProfileSaveError.wouldReplace(file: "tokyo.yaml", holding: "1 profile: Tokyo").description
                == "tokyo.yaml exists (1 profile: Tokyo)")
    }
}
