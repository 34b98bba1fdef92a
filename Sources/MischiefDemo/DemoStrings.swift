/// The demo's English strings table, as a `Localizable.strings` file would hold it.
enum DemoStrings {
    static let english: [String: String] = [
        "comet.title": "Halley's Comet returns in",
        "comet.countdown": "%d days, %d hours, %d minutes",
        "comet.here": "Halley's Comet is here!",
        "comet.today": "Today is %@",
        "weather.title": "Weather here",
        "weather.offline": "offline",
        "weather.unknown": "Location unavailable",
        "greeting.title": "Greeting",
        "greeting.message": "Welcome back, %@! You have %d new messages.",
        "profile.title": "Profile card",
    ]
}
