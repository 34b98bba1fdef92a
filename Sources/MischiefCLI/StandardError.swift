#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard error as a `TextOutputStream`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        while !bytes.isEmpty {
            let written = Glibc.write(2, bytes, bytes.count)
            guard written > 0 else { return }
            bytes.removeFirst(written)
        }
    }
}
