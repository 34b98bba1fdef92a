extension Registry {
    /// The guards a registry watches, in the order they were added, and the id the next one gets: guards keep their
    /// ids when others are removed, and ids are never reused.
    ///
    /// A value inside the registry's state, touched only under its lock; what a guard does on each round is in
    /// `Registry+Guards.swift`.
    struct GuardBook: RandomAccessCollection, MutableCollection {
        private var records: [GuardRecord] = []
        private var nextID = 1

        var startIndex: Int { records.startIndex }
        var endIndex: Int { records.endIndex }

        subscript(position: Int) -> GuardRecord {
            get { records[position] }
            set { records[position] = newValue }
        }

        /// Adds a guard for `rule`, made by `source`; returns its id and its index.
        mutating func add(_ rule: Guard, source: String) -> (id: Int, index: Int) {
            let id = nextID
            nextID += 1
            records.append(GuardRecord(id: id, rule: rule, source: source))
            return (id, records.count - 1)
        }

        /// The index of guard `id`, if there is one.
        func index(of id: Int) -> Int? {
            records.firstIndex { $0.id == id }
        }

        /// Removes the guard at `index`, and returns it.
        mutating func remove(at index: Int) -> GuardRecord {
            records.remove(at: index)
        }

        /// Removes every guard `source` made; returns whether there were any.
        mutating func removeAll(from source: String) -> Bool {
            let before = records.count
            records.removeAll { $0.source == source }
            return records.count != before
        }
    }

    /// A guard and what it has seen.
    struct GuardRecord {
        let id: Int
        let rule: Guard
        let source: String
        var state: GuardStatus.State = .armed
        /// The guarded seam's calls and errors (as its core counts them; they only grow) at each round, oldest
        /// first: for an error rate, the oldest is the window's start; for no-success, the last success.
        var samples: [(time: Duration, calls: Int, errors: Int)] = []
        /// Health checks that failed in a row.
        var failures = 0

        var isTripped: Bool {
            if case .tripped = state { return true }
            return false
        }
    }
}
