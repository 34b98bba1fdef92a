import ArgumentParser
import Mischief
import MischiefControl

/// `mischief release`: let the calls a `pause` holds on a seam go on, or (a breakpoint) answer them.
struct ReleaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Release the calls a pause holds on a seam of a running target, or answer them.",
        discussion: """
            A pause is a breakpoint: the console shows each held call's input (so does `heldCalls` in `GET /v1/seams`). Release them \
            unchanged, or give what they return with --return (any spec of the seam: 'return({"name": "Grace"})', \
            'throw("offline")', a city, a date), or fail them with --fail. The pause then holds the next call \
            again, unless --continue reverts it so the rest run. A held call nobody answers goes on unchanged after \
            the pause's maximum (30s unless the spec says), and the event log says so.
            """)

    @Argument(help: "The seam whose held calls to release.")
    var seam: String

    @Option(
        name: .customLong("return"), help: ArgumentHelp("What each held call returns, as a spec.", valueName: "spec"))
    var answer: String?

    @Flag(help: "Fail each held call with the seam's error (spec `throw`).")
    var fail = false

    @Flag(name: .customLong("continue"), help: "Revert the pause afterwards, so the next calls run without holding.")
    var letRestRun = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Release the calls held in the running tests this names (a number, a name or a pattern): a breakpoint on those tests.",
            valueName: "name|pattern"))
    var scope: String?

    @OptionGroup var target: TargetOptions

    func validate() throws {
        if fail, answer != nil { throw ValidationError("give --return or --fail, not both") }
        if scope != nil, fail || answer != nil || letRestRun {
            throw ValidationError(
                "in a test's scope, release lets the held calls go on unchanged; revert the pause with `mischief revert --scope`"
            )
        }
    }

    func run() async throws {
        let id: SeamID
        do { id = try SeamID(seam) } catch {
            printError(error)
            throw TargetExit.refused
        }
        let client = try await target.connect()
        if let scope {
            let result = try await talking { () async throws(ControlClientError) in
                try await client.release(id, inScopes: scope)
            }
            print(
                "\(id): released \(result.count) held call\(result.count == 1 ? "" : "s") in "
                    + (result.scopes.isEmpty
                        ? "no running test" : result.scopes.map { "#\($0.id) \($0.name)" }.joined(separator: ", ")))
            return
        }
        let answer = fail ? "throw" : self.answer
        let holdNext = !letRestRun
        let result = try await talking { () async throws(ControlClientError) in
            answer == nil && holdNext
                ? try await client.release(id) : try await client.release(id, answer: answer, holdNext: holdNext)
        }
        var line = "\(result.seam): released \(result.released) held call\(result.released == 1 ? "" : "s")"
        if let answer { line += " answering \(answer)" }
        if !holdNext { line += "; the pause is reverted" }
        print(line)
    }
}
