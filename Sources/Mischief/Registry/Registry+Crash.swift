#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Registry {
    /// The exit status of a process a `crash` behaviour ended: 86, chosen to stand out from the statuses
    /// programs usually exit with (1, 2, 64–78) and from deaths by signal (128 + n).
    public static let crashExitStatus: Int32 = 86

    /// Whether `crash` behaviours may be applied, which end the process on purpose. Off unless the process was
    /// started with `MISCHIEF_ALLOW_CRASH=1` (or `true`, `yes`); a control server started with `allowCrash: true`
    /// turns it on. While it is off, applying a `crash` (from code, a profile, the console, the control API or
    /// the CLI) is refused with a ``MischiefError`` that says how to allow it. Turning it off later does not
    /// revert a crash already applied.
    public var allowsCrash: Bool {
        get { state.withLock { $0.allowsCrash } }
        set { state.withLock { $0.allowsCrash = newValue } }
    }

    /// Whether `MISCHIEF_ALLOW_CRASH` allows crashes in this process.
    static var crashAllowedByEnvironment: Bool {
        guard let value = Environment.value("MISCHIEF_ALLOW_CRASH")?.lowercased() else { return false }
        return ["1", "true", "yes"].contains(value)
    }

    /// Ends the process for a `crash` behaviour: says why on standard error, then exits with
    /// ``crashExitStatus``, running the exit handlers (a console restores the terminal, a control server
    /// removes its socket).
    static func endProcess(seam: SeamID, message: String) -> Never {
        let text =
            "mischief: crash(\(quoted(message))) on \(seam): ending the process on purpose "
            + "(exit status \(crashExitStatus))\n"
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        exit(crashExitStatus)
    }
}
