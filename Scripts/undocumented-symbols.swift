// Lists the public declarations without a doc comment in symbol graphs (the `.symbols.json` files DocC builds from),
// and exits 1 if there is any. Only declarations in this package's Sources/ count: what the compiler synthesises
// (Equatable, Codable) and what a protocol provides have no source location of their own here.
//
// Usage: swift Scripts/undocumented-symbols.swift FILE.symbols.json…      (Scripts/docs.sh runs it)
import Foundation

var missing: [String] = []
for path in CommandLine.arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path),
        let graph = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let symbols = graph["symbols"] as? [[String: Any]]
    else {
        FileHandle.standardError.write(Data("undocumented-symbols: cannot read a symbol graph from \(path)\n".utf8))
        exit(2)
    }
    for symbol in symbols {
        guard let access = symbol["accessLevel"] as? String, access == "public" || access == "open",
            symbol["docComment"] == nil,
            let location = symbol["location"] as? [String: Any], let uri = location["uri"] as? String,
            let sources = uri.range(of: "/Sources/")
        else { continue }
        let line = ((location["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
        let name = (symbol["pathComponents"] as? [String])?.joined(separator: ".") ?? "?"
        let kind = (symbol["kind"] as? [String: Any])?["displayName"] as? String ?? "symbol"
        missing.append("Sources/\(uri[sources.upperBound...]):\(line): \(kind) \(name) has no doc comment")
    }
}
for line in Set(missing).sorted() { print(line) }
exit(missing.isEmpty ? 0 : 1)
