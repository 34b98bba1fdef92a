import Foundation
import Mischief

/// Which requests a network rule applies to: every given criterion must hold.
///
/// - `method`: the HTTP method, ignoring case (`GET`).
/// - `url`: a regular expression found anywhere in the absolute URL (`weather`, `/v[12]/users/\d+$`).
/// - `host`: the host, ignoring case; `*.example.com` matches every subdomain of example.com.
/// - `path`: the URL's path; one ending in `*` matches every path that starts with the rest (`/api/*`).
/// - `header`: a header field's name (`Authorization`: present), or name and a regular expression found in its value
///   (`Accept: json`).
///
/// ```swift
/// let api = try NetworkMatch(host: "api.example.com", path: "/v1/*")
/// try registry.apply(network.seam, api.rule(.first(2, .constant(.offline))))  // the first two API requests fail
/// ```
public struct NetworkMatch: Hashable, Sendable, CustomStringConvertible {
    /// The HTTP method, or nil for any.
    public let method: String?
    /// The regular expression the URL must contain, or nil for any.
    public let url: String?
    /// The host, or nil for any.
    public let host: String?
    /// The path, or nil for any.
    public let path: String?
    /// The header field (and value pattern), or nil for any.
    public let header: String?

    private let urlPattern: Pattern?
    private let headerName: String?
    private let headerPattern: Pattern?

    /// Every request.
    public static let any = NetworkMatch()

    private init() {
        (method, url, host, path, header) = (nil, nil, nil, nil, nil)
        (urlPattern, headerName, headerPattern) = (nil, nil, nil)
    }

    /// Makes a match from criteria; nil criteria match anything.
    ///
    /// - Throws: ``NetworkMatchError`` when `url` or the value part of `header` is not a valid regular expression.
    public init(
        method: String? = nil, url: String? = nil, host: String? = nil, path: String? = nil, header: String? = nil
    ) throws(NetworkMatchError) {
        self.method = method?.uppercased()
        self.url = url
        self.host = host?.lowercased()
        self.path = path
        self.header = header
        self.urlPattern = try url.map { (source) throws(NetworkMatchError) in try Pattern(source, for: "url") }
        if let header, let colon = header.firstIndex(of: ":") {
            headerName = header[..<colon].trimmingCharacters(in: .whitespaces)
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headerPattern = try Pattern(value, for: "header")
        } else {
            headerName = header?.trimmingCharacters(in: .whitespaces)
            headerPattern = nil
        }
    }

    /// True when no criterion is given.
    public var isAny: Bool { method == nil && url == nil && host == nil && path == nil && header == nil }

    /// Whether `request` meets every criterion.
    public func matches(_ request: NetworkRequest) -> Bool {
        if let method, request.method != method { return false }
        if let host {
            let requestHost = request.url.host?.lowercased() ?? ""
            if host.hasPrefix("*.") {
                guard requestHost.hasSuffix(host.dropFirst(1)) else { return false }
            } else if requestHost != host {
                return false
            }
        }
        if let path {
            let requestPath = request.url.path
            if path.hasSuffix("*") {
                guard requestPath.hasPrefix(path.dropLast()) else { return false }
            } else if requestPath != path {
                return false
            }
        }
        if let headerName {
            guard let value = request.header(headerName) else { return false }
            if let headerPattern, !headerPattern.found(in: value) { return false }
        }
        if let urlPattern, !urlPattern.found(in: request.url.absoluteString) { return false }
        return true
    }

    /// `behaviour` for matching requests; the others fall through to older rules, or the network.
    ///
    /// Counting behaviours inside (`.first`, `.probability`, `.sequence`) count matching requests only.
    public func rule(_ behaviour: NetworkRule) -> NetworkRule {
        isAny ? behaviour : .match([NetworkRule.Rule(matches, behaviour)])
    }

    /// The criteria as spec arguments: `host: "api.example.com", path: "/v1/*"`.
    public var description: String {
        let parts: [(String, String?)] = [
            ("url", url), ("host", host), ("path", path), ("method", method), ("header", header),
        ]
        return parts.compactMap { name, value in value.map { "\(name): \(Spec.Value.string($0))" } }
            .joined(separator: ", ")
    }

    public static func == (lhs: NetworkMatch, rhs: NetworkMatch) -> Bool {
        (lhs.method, lhs.url, lhs.host, lhs.path, lhs.header) == (rhs.method, rhs.url, rhs.host, rhs.path, rhs.header)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(host)
        hasher.combine(path)
        hasher.combine(header)
    }
}

/// A regular expression a network rule looks for.
private struct Pattern: @unchecked Sendable {
    // @unchecked: NSRegularExpression is immutable and safe to use from any thread; not every SDK marks it Sendable.
    let expression: NSRegularExpression

    init(_ source: String, for parameter: String) throws(NetworkMatchError) {
        do {
            expression = try NSRegularExpression(pattern: source)
        } catch {
            throw NetworkMatchError(parameter: parameter, pattern: source)
        }
    }

    func found(in text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// A network rule's pattern that is not a valid regular expression.
public struct NetworkMatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The criterion at fault: `url` or `header`.
    public let parameter: String
    /// The pattern as given.
    public let pattern: String

    public var description: String {
        "'\(pattern)' in '\(parameter)' is not a valid regular expression; escape special characters such as "
            + "( [ ? * + with a backslash, or write a plain word to find it anywhere"
    }
}
