import ArgumentParser
import Mischief
import MischiefControl

@main
struct MischiefCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mischief",
        abstract: "A chaos console for Swift programs: change how a running program behaves, live.",
        discussion: """
            A target routes calls (the clock, the location, strings, models, network responses, its own \
            functions) through named seams; Mischief changes what those seams do and reverts every change.
            """,
        version: "\(ControlAPI.libraryVersion) (control API v\(ControlAPI.version))",
        subcommands: [
            DemoCommand.self, AttachCommand.self, ListCommand.self, ApplyCommand.self, RevertCommand.self,
            ReleaseCommand.self,
            ResetCommand.self, RecordCommand.self, ReplayCommand.self, ExportCommand.self,
            GuardCommand.self, WatchCommand.self, SpecCommand.self, ThemesCommand.self,
        ]
    )
}
