/// The service's English texts, by key: what `l10n.string` passes through when nothing is applied.
enum Strings {
    static let english: [String: String] = [
        "quote.line": "%@ costs %@ %@ at %@",
        "token.expired": "Your session expired at %@. Sign in again.",
        "token.valid": "Token valid until %@",
        "upstream.failed": "The price service is unavailable: %@",
    ]
}
