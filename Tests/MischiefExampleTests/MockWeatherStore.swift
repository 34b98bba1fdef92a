import MischiefTesting

/// The store as a strict mock, one line per member: a call no rule answers fails the test, naming the member and
/// its input, so a test says everything it expects the model to ask of the store.
final class MockWeatherStore: WeatherStore {
    let lastReportMock = FuncMock<String, WeatherReport?>("lastReport")
    let saveMock = ThrowingFuncMock<WeatherReport, Void>("save")
    let unitMock = PropMock<TemperatureUnit>("unit", .celsius)

    func lastReport(for place: String) -> WeatherReport? { lastReportMock.call(place) }
    func save(_ report: WeatherReport) throws { try saveMock.call(report) }
    var unit: TemperatureUnit { unitMock.get() }
}
