import ArgumentParser
import Foundation
import Mischief
import MischiefCatalog
import MischiefConsole
import MischiefControl
import MischiefCurses
import MischiefDemo
import MischiefFiles
import MischiefSystem

/// `mischief demo`: the console over the built-in demo target, in one process.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the console over the built-in demo target.",
        discussion: """
            The demo app counts down to Halley's Comet, shows the weather where it thinks it is, greets you in a \
            fixed-width box and shows a profile card, calling its seams several times a second. Keys 1–8 toggle \
            its preset profiles; : opens the command palette (apply SEAM SPEC [ttl D], revert SEAM, any key's action \
            by name); ? lists every key. Quitting, Ctrl-C, SIGTERM and SIGHUP restore the terminal and \
            revert what the console changed (unless --keep).
            """)

    @OptionGroup var console: ConsoleOptions

    @Option(
        name: .long,
        help:
            "The session seed for random behaviours without a seed of their own (default: $MISCHIEF_SEED, else random)."
    )
    var seed: UInt64?

    @Flag(name: .long, help: "No console: serve the control API and print the socket path, until SIGINT or SIGTERM.")
    var headless = false

    @Option(
        name: .long,
        help:
            "With --headless, the socket path (default: $XDG_RUNTIME_DIR/mischief/demo-PID.sock, else /tmp/mischief-UID/demo-PID.sock)."
    )
    var socket: String?

    @Option(
        name: .customLong("allow-files"),
        help: ArgumentHelp(
            "With --headless, a directory whose regular files specs from the control API may read (respond(file:),"
                + " route(path:)); repeatable. Default: none.",
            valueName: "dir"))
    var allowFiles: [String] = []

    @Flag(
        name: .customLong("allow-crash"),
        help: ArgumentHelp(
            "Let specs from the console, the control API and the CLI apply crash(\"msg\"), which ends the demo"
                + " with exit status 86 (as MISCHIEF_ALLOW_CRASH=1 does)."))
    var allowCrash = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --headless, this target's label among targets named demo, which seeds given with a change are"
                + " derived with (default: MISCHIEF_LABEL, else demo#N, N the demos already serving).",
            valueName: "label"))
    var label: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Install the system seams: system.clock changes the wall clock that Date(), time() and gettimeofday"
                + " read in all of the demo's code and libraries, not only through its seams, and system.net the"
                + " lookups and connects of libcurl and Foundation; the demo shows the date as plain Date() reads it"
                + " and a plain URLSession fetch from a loopback server of its own."))
    var system = false

    func validate() throws {
        if socket != nil, !headless { throw ValidationError("--socket needs --headless") }
        if !allowFiles.isEmpty, !headless { throw ValidationError("--allow-files needs --headless") }
        if label != nil, !headless { throw ValidationError("--label needs --headless") }
        for directory in allowFiles {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw ValidationError("--allow-files: '\(directory)' is not a directory") }
        }
    }

    func run() async throws {
        let registry = Self.registry(seed: seed)
        if allowCrash { registry.allowsCrash = true }
        let clock = ChaosClock.shared
        let demo: DemoTarget
        do {
            demo = try DemoTarget(registry: registry, clock: clock)
            try demo.definePresets()
        } catch {
            printError(error)
            throw ExitCode(1)
        }
        var setup = console.prepare(registry: registry)
        if system {
            do {
                let report = try SystemSeams.install([.clock, .net], in: registry)
                setup.messages += Self.systemSeamsLines(report)
                setup.messages += report.warnings
                demo.showSystemDate()
                demo.showPlainFetch()
            } catch {
                printError(error)
                throw ExitCode(1)
            }
        }
        if headless { return try await serve(registry: registry, demo: demo, clock: clock, messages: setup.messages) }
        // The console's controller has the registry count calls while the console reads it (`RegistryFollower`).
        // The demo app is not cancelled at the end: the process ends with it. Cancelling it can deadlock when a
        // weather request completes at that moment (swift-corelibs-foundation: URLSessionTask.cancel() waits for
        // the session's queue while that queue waits for the task's status lock, which the cancel holds).
        _ = Task { await demo.run() }
        demo.publish()

        let controller = LocalController(
            registry: registry, name: "mischief demo", saveDirectory: setup.saveDirectory,
            targetTime: { clock.peekDate() }, advance: { await clock.advance(by: $0) })
        let exit = try await console.run(controller: controller, setup: setup)
        if !console.keep { registry.revertAll(source: "console") }
        if case .signal(let signal) = exit { throw ExitCode(signal.exitStatus) }
    }
}

extension DemoCommand {
    /// The process-wide registry, as a target's would be, so `MISCHIEF_APPLY` and `MISCHIEF_PROFILE` apply to the demo; `--seed` is its
    /// session seed (given through `MISCHIEF_SEED`, which it reads when it starts). Should it have started already
    /// with another seed, the demo gets a registry of its own with the seed asked for.
    static func registry(seed: UInt64?) -> Registry {
        if let seed { setenv("MISCHIEF_SEED", String(seed), 1) }
        let shared = Registry.shared
        guard let seed, shared.sessionSeed != seed else {
            ProfileEnvironment.applyFromEnvironment(to: shared)
            return shared
        }
        return Registry(sessionSeed: seed)
    }

    /// What the system seams reach, a line a family as `mischief list` shows them: `system.clock rebound: …; not: …`.
    static func systemSeamsLines(_ report: SystemSeamsReport) -> [String] {
        SystemSeams.Family.allCases.compactMap { family in
            report.summary(of: family).map { "system.\(family.rawValue) \($0)" }
        }
    }

    /// `--headless`: the demo target with its control socket and no console.
    ///
    /// The socket path is the first line it prints (scripts read it, also from `2>&1`); what it has to say (the system
    /// seams' coverage, diagnostics) follows on standard error, wrapped between words at 100 columns.
    private func serve(registry: Registry, demo: DemoTarget, clock: ChaosClock, messages: [String]) async throws {
        var standardError = StandardError()
        let sayMessages = {
            for message in messages {
                // 100 columns with the indent.
                print(WatchTable.wrapped(message, width: 96, indent: 4), to: &standardError)
            }
        }
        var options = ControlServer.Options(name: "demo", socketPath: socket)
        options.label = label
        options.targetTime = { clock.peekDate() }
        options.advance = { await clock.advance(by: $0) }
        options.allowCrash = allowCrash
        let cwd = FileManager.default.currentDirectoryPath
        options.fileAccess = .confined(to: allowFiles.map { $0.hasPrefix("/") ? $0 : cwd + "/" + $0 })
        let server = ControlServer(registry: registry, options: options)
        do {
            try await server.start()
        } catch {
            sayMessages()
            printError(error)
            throw ExitCode(1)
        }
        _ = Task { await demo.run() }  // not cancelled at the end; see run()
        demo.publish()
        // Caught from before the socket path is printed, so whoever reads it may stop the demo at once.
        let signals = try SignalCatcher.install()
        print(server.socketPath)
        fflush(nil)
        sayMessages()
        print(
            """
            mischief demo: serving the control API on that socket (Ctrl-C stops)
              mischief attach \(server.socketPath)
              curl --unix-socket \(server.socketPath) http://localhost/v1/seams
            """, to: &standardError)
        _ = await signals.next()
        await server.stop()
    }
}

/// Options every console command shares, and how they turn into a running console.
struct ConsoleOptions: ParsableArguments {
    @Option(name: .long, help: "A theme name or a path to a theme file (see `mischief themes`).")
    var theme: String?

    @Flag(name: .long, help: "No colours (the mono theme); also when NO_COLOR is set.")
    var noColor = false

    @Flag(name: .long, help: "Leave what the console applied in place when it quits.")
    var keep = false

    @Flag(name: .customLong("no-mouse"), help: "Leave the mouse to the terminal (text selection) instead of clicks.")
    var noMouse = false

    @Option(
        name: .long,
        help:
            "A directory of profile files to load (may repeat; also $MISCHIEF_PROFILES, $XDG_CONFIG_HOME/mischief/profiles, ./profiles)."
    )
    var profiles: [String] = []

    /// What `prepare` found: the themes to cycle, problems to show, where to save.
    struct Setup {
        var themes: [Theme]
        var messages: [String]
        var saveDirectory: URL
    }

    /// Loads the theme and the user's profile files into `registry` (the console's own process), each checked
    /// against the seams registered there and given a free hot key when it has none, collecting problems.
    func prepare(registry: Registry) -> Setup {
        var setup = prepareThemes()
        let (_, diagnostics) = ProfileFile.loadAll(from: profileDirectories, into: registry)
        setup.messages += diagnostics.map(\.description)
        let taken = Set(registry.profiles.compactMap(\.profile.key))
        var free = (1...9).filter { !taken.contains($0) }
        for status in registry.profiles where status.profile.key == nil && !free.isEmpty {
            var profile = status.profile
            profile.key = free.removeFirst()
            try? registry.define(profile)
        }
        return setup
    }

    /// Loads the theme and the user's profile files for an attached target: each checked against the target's
    /// `seams` (their actions included) and given a free hot key after the target's own `profiles`. Returns the
    /// profiles to define on the target, which checks them again (their guards too) when it is sent them.
    func prepare(attachedTo seams: [SeamSnapshot], profiles defined: [ProfileStatus]) -> (Setup, [ProfileFile]) {
        var setup = prepareThemes()
        let keys = defined.compactMap { status in status.profile.key.map { ($0, status.profile.name) } }
        let keysTaken = Dictionary(keys) { first, _ in first }
        var (files, diagnostics) = ProfileFile.loadAll(
            from: profileDirectories, checkedAgainst: seams, keysTaken: keysTaken)
        setup.messages += diagnostics.map(\.description)
        let taken = Set(keysTaken.keys).union(files.compactMap(\.key))
        var free = (1...9).filter { !taken.contains($0) }
        for index in files.indices where files[index].key == nil && !free.isEmpty {
            files[index].key = free.removeFirst()
        }
        return (setup, files)
    }

    /// Where profile files are looked for: `--profiles`, then `$MISCHIEF_PROFILES`, then the user's and the
    /// current directory's.
    private var profileDirectories: [URL] {
        SearchPath.profiles(
            explicit: profiles, environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// The theme to start with and the others to cycle through, and where saved profiles go.
    private func prepareThemes() -> Setup {
        let environment = ProcessInfo.processInfo.environment
        let catalog = ThemeCatalog(environment: environment, currentDirectory: FileManager.default.currentDirectoryPath)
        let loaded = catalog.load(theme, noColour: noColor)
        var themes = [loaded.theme]
        if loaded.theme.isMonochrome == false {
            for item in catalog.list().items {
                guard let other = item.theme, item.name != loaded.theme.name, other.name != loaded.theme.name else {
                    continue
                }
                themes.append(other)
            }
        }
        let config =
            environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return Setup(
            themes: themes, messages: loaded.diagnostics.map(\.description),
            saveDirectory: config.appendingPathComponent("mischief/profiles"))
    }

    /// Runs the console on this terminal until the user quits or a signal arrives.
    func run(controller: some ConsoleController, setup: Setup) async throws -> ConsoleRunner.Exit {
        var standardError = StandardError()
        // The console shows the problems found at start (status line, event log); they go to stderr only when it
        // cannot start, so nothing is written under a screen the console owns.
        let terminal = CursesTerminal(palette: setup.themes[0].palette, mouse: !noMouse)
        let runner = ConsoleRunner(
            terminal: terminal, controller: controller, themes: setup.themes, messages: setup.messages,
            historyFile: SpecHistoryFile.url()
        ) { terminal.setPalette($0.palette) }
        do {
            return try await runner.run()
        } catch {
            // A terminal error says what the console needs and how to get it; others say what failed.
            let reason = error is CursesTerminalError ? "\(error)" : "the console could not start: \(error)"
            for message in setup.messages { print(message, to: &standardError) }
            print("error: \(reason)", to: &standardError)
            throw ExitCode(1)
        }
    }
}
