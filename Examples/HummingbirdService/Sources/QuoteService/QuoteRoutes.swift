import AsyncHTTPClient
import Foundation
import Hummingbird
import MischiefCatalog
import NIOCore

/// The service's routes, each doing what real ones do: read the time for a token's expiry, call an upstream, decode a
/// model, format text for a locale.
struct QuoteRoutes: Sendable {
    let clock: ChaosClock
    let quotes: ChaosModel<Quote>
    let strings: ChaosStrings
    let http: HTTPClient
    let upstream: String
    /// The service's own session: its expiry checked on the catalogue clock (`clock.now`).
    let session: Session
    /// A library's token: its expiry checked with `Date()` (`system.clock`).
    let token: LibraryToken

    func add(to router: Router<BasicRequestContext>) {
        router.get("health") { _, _ in "ok\n" }
        router.get("quote") { request, _ in try await quote(request) }
        router.get("token") { _, _ in try tokenStatus() }
    }

    /// `GET /quote?symbol=ACME&locale=de_DE`: 401 once the session has expired on `clock.now`, 502 when the upstream
    /// fails or answers what does not decode, else one line formatted for the locale.
    func quote(_ request: Request) async throws -> String {
        let now = clock.date
        guard now < session.expires else {
            throw HTTPError(
                .unauthorized, message: strings.format("token.expired", session.expires.formatted(.iso8601)) + "\n")
        }
        let symbol = request.uri.queryParameters.get("symbol") ?? "ACME"
        let locale = Locale(identifier: request.uri.queryParameters.get("locale") ?? "en_US")
        let data: Data
        do {
            var upstreamRequest = HTTPClientRequest(url: "\(upstream)/price?symbol=\(symbol)")
            upstreamRequest.headers.add(name: "Connection", value: "close")
            let response = try await http.execute(upstreamRequest, timeout: .seconds(2))
            guard response.status == .ok else {
                throw HTTPError(.badGateway, message: strings.format("upstream.failed", "\(response.status)") + "\n")
            }
            data = Data(buffer: try await response.body.collect(upTo: 64 * 1024))
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError(.badGateway, message: strings.format("upstream.failed", "\(error)") + "\n")
        }
        let quote: Quote
        do { quote = try quotes.decode(data) } catch {
            throw HTTPError(.badGateway, message: strings.format("upstream.failed", "undecodable quote") + "\n")
        }
        let price = quote.price.formatted(.number.precision(.fractionLength(2)).locale(locale))
        return strings.format("quote.line", quote.symbol, price, quote.currency, now.formatted(.iso8601)) + "\n"
    }

    /// `GET /token`: 401 once the library's token has expired by its own `Date()`.
    func tokenStatus() throws -> String {
        guard !token.isExpired else {
            throw HTTPError(
                .unauthorized, message: strings.format("token.expired", token.expires.formatted(.iso8601)) + "\n")
        }
        return strings.format("token.valid", token.expires.formatted(.iso8601)) + "\n"
    }
}
