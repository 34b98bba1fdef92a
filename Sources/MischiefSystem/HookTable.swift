import CMischiefRebind

/// One family's hooks and where they go: the rebindings (symbol, hook, where the original is kept), allocated once
/// and kept for the process (a hook may still run on another thread after an uninstall), and which loaded objects
/// they are put in: the family's default libraries and the ones the caller named, never the excluded ones unless
/// named. Callers serialize ``apply()`` and ``coverage()`` with their own lock.
final class HookTable: Sendable {
    /// Written once in init, then only read.
    nonisolated(unsafe) let rebindings: UnsafeMutablePointer<mischief_rebinding>
    let count: Int
    let family: SystemSeams.Family
    /// The names (or their beginnings) of the libraries rebound unless others are named; `(executable)` for the
    /// program itself.
    let defaults: [String]
    /// More libraries, as the caller named them (a part of a file name).
    let named: [String]

    /// The table of `count` hooks, each from `make(index)`.
    init(
        count: Int, family: SystemSeams.Family, defaults: [String], named: [String],
        make: (Int32) -> mischief_rebinding
    ) {
        rebindings = .allocate(capacity: count)
        for index in 0..<count { rebindings[index] = make(Int32(index)) }
        self.count = count
        self.family = family
        self.defaults = defaults
        self.named = named
    }

    /// Points the slots of the chosen objects at the hooks; the slots written, or -1 with errno.
    func apply() -> Int32 {
        mischief_rebind_apply(
            rebindings, count,
            { path, context in
                guard let context else { return 0 }
                let table = Unmanaged<HookTable>.fromOpaque(context).takeUnretainedValue()
                return table.chooses(path.map { String(cString: $0) } ?? "") ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Whether the object at `path` ("" for the executable) is rebound: the defaults and those named, never an
    /// excluded library unless named, and for the wall clock never the executable unless named when the Swift runtime
    /// is linked into it (``SystemSeams/swiftRuntimeIsStatic``): libdispatch would share its slots.
    func chooses(_ path: String) -> Bool {
        let name = Self.name(of: path)
        if named.contains(where: { name.contains($0) }) { return true }
        if SystemSeams.excludedLibraries.contains(where: { name.hasPrefix($0) }) { return false }
        if path.isEmpty && family == .clock && SystemSeams.swiftRuntimeIsStatic { return false }
        return defaults.contains { $0 == "(executable)" ? path.isEmpty : name.hasPrefix($0) }
    }

    /// What is covered now, library by library: every loaded object, with or without slots of the family's
    /// functions.
    func coverage() -> [SystemSeamsReport.Library] {
        SystemSeamsReport.coverage(of: rebindings, count: count, family: family)
    }

    /// The libraries this table would rebind that no loaded object in `libraries` (from ``coverage()``) is: the
    /// defaults and the names given, as written.
    func notLoaded(among libraries: [SystemSeamsReport.Library]) -> [String] {
        let names = libraries.map(\.name)
        let defaults = defaults.filter { wanted in
            wanted != "(executable)" && !names.contains { $0.hasPrefix(wanted) }
        }
        let named = named.filter { wanted in !names.contains { $0.contains(wanted) } }
        return defaults + named.filter { !defaults.contains($0) }
    }

    /// The file name of `path`, or `(executable)` for the program itself.
    static func name(of path: String) -> String {
        path.isEmpty ? "(executable)" : String(path.split(separator: "/").last ?? Substring(path))
    }
}
