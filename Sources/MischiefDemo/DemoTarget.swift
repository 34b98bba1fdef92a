import Foundation
import Mischief
import MischiefCatalog
import MischiefFiles
import MischiefNetwork
import Synchronization

/// The built-in demo target: a small app that keeps calling the catalogue's seams and publishes its own screen
/// through the registry's target view. It knows nothing of the console.
///
/// ```swift
/// let demo = try DemoTarget(registry: .shared)
/// let task = Task { await demo.run() }      // refreshes its panels until cancelled
/// ```
///
/// Its panels: a countdown to Halley's Comet from the clock, the weather where the location says it is (fetched
/// from the demo's own loopback server, so it answers until a network rule says otherwise), a greeting
/// from localised strings in a fixed-width box, and a profile card decoded from JSON field by field. With
/// ``showSystemDate()`` and ``showPlainFetch()`` (`mischief demo --system`) it also shows what code written without
/// Mischief sees: the date as plain `Date()` reads it, and a plain `URLSession` fetch from a loopback server of its own.
public final class DemoTarget: Sendable {
    /// The registry its seams are registered in.
    public let registry: Registry
    /// The chaos clock (`clock.now`).
    public let clock: ChaosClock
    /// Where the app thinks it is (`location.current`); really in Lisbon.
    public let location: ChaosLocation
    /// Its localised strings (`l10n.string`).
    public let strings: ChaosStrings
    /// Its user model (`model.user.decode`, `model.user`).
    public let users: ChaosModel<DemoUser>
    /// The weather service client, whose requests go through `net.request`.
    let weather: DemoWeather
    /// The loopback server that serves the weather and the plain fetch (or why it could not listen).
    private let server: Result<DemoLoopbackServer, DemoLoopbackServer.Failure>
    /// How often the panels are recomputed.
    let refresh: Duration
    private let started = ContinuousClock.now
    /// The app's time and the real time it last read it at, to tell how fast its clock runs.
    private let lastReading = Mutex<(date: Date, at: ContinuousClock.Instant)?>(nil)
    /// Whether the screen shows the date as plain `Date()` reads it (no seam, no ``ChaosClock``): what the
    /// `system.clock` seam changes (`mischief demo --system`).
    private let showsSystemDate = Atomic(false)

    /// The plain fetch (no MischiefNetwork) whose result the screen shows, once ``showPlainFetch()`` started it.
    private let plainFetch = Mutex<DemoPlainFetch?>(nil)
    /// Told when ``showPlainFetch()`` starts the plain fetch, which its loop sleeps until.
    private let plainFetchShown = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

    /// Shows the date as plain `Date()` reads it on the screen from now on, as code written without Mischief would
    /// see it: for `mischief demo --system`, whose `system.clock` seam changes it.
    public func showSystemDate() {
        showsSystemDate.store(true, ordering: .relaxed)
    }

    /// Starts a loopback HTTP server of the demo's own and fetches from it every second with a plain `URLSession`
    /// (libcurl, no MischiefNetwork), showing the result on the screen from now on: for `mischief demo --system`,
    /// whose `system.net` seam changes what that fetch gets (`refused(host: "127.0.0.1")` makes it fail).
    ///
    /// Loopback only: no traffic leaves the machine. Calling it again changes nothing.
    public func showPlainFetch() {
        plainFetch.withLock { fetch in
            if fetch == nil { fetch = DemoPlainFetch(server: server) }
        }
        plainFetchShown.continuation.yield()
    }

    /// Creates the demo's seams and registers them in `registry`.
    ///
    /// - Parameters:
    ///   - clock: The clock to read; by default the shared one (`clock.now`).
    ///   - refresh: How often the panels are recomputed, on the wall clock's multiples of it (real time, so frozen
    ///     chaos time does not stop the app); they are recomputed at once, too, when the registry changes.
    public init(registry: Registry = .shared, clock: ChaosClock = .shared, refresh: Duration = .seconds(1))
        throws(MischiefError)
    {
        self.registry = registry
        self.clock = clock
        self.refresh = refresh
        location = ChaosLocation(now: { clock.peekDate() }) {
            Cities.named("Lisbon")!.coordinate(at: clock.peekDate(), horizontalAccuracy: 20)
        }
        strings = ChaosStrings { lookup in DemoStrings.english[lookup.key] ?? lookup.value ?? lookup.key }
        users = ChaosModel<DemoUser>(
            "user", title: "User profile", encoder: DemoUser.encoder, decoder: DemoUser.decoder)
        server = Result { () throws(DemoLoopbackServer.Failure) in try DemoLoopbackServer() }
        switch server {
        case .success(let server):
            weather = DemoWeather(
                registry: registry, service: URL(string: "http://127.0.0.1:\(server.port)/v1/weather")!)
        case .failure:
            weather = DemoWeather(registry: registry)  // a closed port: the panel says offline
        }
        try registry.register(clock.seam, location.seam, strings.seam, users.decoding, users.values)
        try registry.register(weather.network.seam)
    }

    deinit {
        if case .success(let server) = server { server.stop() }
    }

    /// The preset profiles shipped with the demo (keys 1–8), checked against the demo's seams.
    ///
    /// Their text is built into the binary (``DemoProfilesText``), so an installed `mischief` has them without
    /// any resource bundle.
    public static func presetProfiles() throws(FileErrors) -> [ProfileFile] {
        var files: [ProfileFile] = []
        for file in DemoProfilesText.files {
            files += try ProfileFile.load(text: file.text, file: "Sources/MischiefDemo/Profiles/" + file.name)
        }
        return files
    }

    /// Defines the preset profiles in the registry; returns their names in key order.
    @discardableResult
    public func definePresets() throws -> [String] {
        var names: [String] = []
        for file in try Self.presetProfiles() {
            try registry.define(try file.profile())
            names.append(file.name)
        }
        return names
    }

    /// Runs the app until its task is cancelled: recomputes and publishes its screen on the wall clock's multiples of
    /// `refresh` (so the seconds it shows turn on time) and whenever the registry changes (a change applied shows at
    /// once), and asks for the weather every two seconds.
    public func run() async {
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let changes = registry.changeSignals()
        // The generation of the app's own last publishing when nothing else changed while it built its screen: the
        // change signal that publishing sends wakes nothing (the screen would be built twice a second for it).
        let own = Locked<UInt64?>(nil)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.weatherLoop() }
            group.addTask { await self.plainFetchLoop() }
            group.addTask {
                for await _ in changes where own.withLock({ $0 }) != self.registry.generation { wake.yield() }
            }
            group.addTask {
                while !Task.isCancelled {
                    wake.yield()
                    try? await Task.sleep(for: RealClock.delay(after: RealClock.date(), toNextMultipleOf: self.refresh))
                }
                wake.finish()
            }
            group.addTask {
                for await _ in wakes {
                    guard !Task.isCancelled else { return }
                    let before = self.registry.generation
                    let published = self.registry.publishView(self.screen())
                    own.withLock { $0 = published.flatMap { $0 == before + 1 ? $0 : nil } }
                    // At most ten a second: a behaviour that logs each call the panels make (a change, which wakes
                    // this loop) must not make the app spin.
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            await group.waitForAll()
        }
    }

    /// Recomputes every panel once and publishes the screen.
    public func publish() {
        registry.publish(screen())
    }

    /// The app's screen as it is now (each call reads the seams, counted as the app's own calls).
    public func screen() -> TargetView {
        let now = clock.date
        let at = ContinuousClock.now
        // How the app's clock moved against real time since the last reading a second or more ago: a frozen clock
        // (Frozen time) stands still, which one reading would not show.
        let pace = lastReading.withLock { last -> Double? in
            guard let previous = last else {
                last = (now, at)
                return nil
            }
            let real = (at - previous.at).seconds
            guard real >= 1 else { return nil }
            last = (now, at)
            return now.timeIntervalSince(previous.date) / real
        }
        var lines: [TargetView.Line] = []
        lines += DemoPanels.comet(now: now, pace: pace)
        if showsSystemDate.load(ordering: .relaxed) { lines.append(.init(Self.systemDateLine(Date()))) }
        if let fetch = plainFetch.withLock({ $0 }) { lines.append(.init(fetch.line)) }
        lines.append(.init(""))
        let place: Result<Coordinate, LocationError> = Result { () throws(LocationError) in try location.current() }
        lines += DemoPanels.weather(place: place, report: weather.latest)
        lines.append(.init(""))
        lines += DemoPanels.greeting(strings: strings, unread: 3)
        lines.append(.init(""))
        // The decoded user goes through `model.user` too, as an app's model layer would hand it on.
        lines += DemoPanels.profile(Result { users.value(try users.decode(DemoUser.json)) })
        let uptime = ContinuousClock.now - started
        return TargetView(title: "Demo app · up \(uptime.components.seconds) s", lines: lines)
    }

    /// `System date (plain Date()): 2026-11-26`, the UTC date of `date`.
    static func systemDateLine(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.dateComponents([.year, .month, .day], from: date)
        let text = String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
        return "System date (plain Date()): \(text)"
    }

    /// Fetches every second once ``showPlainFetch()`` has started the plain fetch; sleeps until then.
    private func plainFetchLoop() async {
        while !Task.isCancelled {
            guard let fetch = plainFetch.withLock({ $0 }) else {
                for await _ in plainFetchShown.stream { break }
                continue
            }
            await fetch.fetch()
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func weatherLoop() async {
        while !Task.isCancelled {
            let place = try? location.current()
            await weather.update(for: place)
            try? await Task.sleep(for: .seconds(2))
        }
    }
}
