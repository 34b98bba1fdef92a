import Synchronization

extension Registry {
    /// The guards a registry watches, in the order they were added, and the id the next one gets: guards keep their
    /// ids when others are removed, and ids are never reused.
    ///
    /// A value inside the registry's state, touched only under its lock; what a guard does on each round is in
    /// `Registry+Guards.swift`. Adding a guard and finding one by id never walk the others: ids only grow, so the
    /// records stay sorted by id and a lookup is a binary search, and the number of counting guards on each seam is
    /// kept as guards come and go (adding 10,000 guards one by one walked every guard on each add, 50 million reads).
    struct GuardBook: RandomAccessCollection, MutableCollection {
        private var records: [GuardRecord] = []
        private var nextID = 1
        /// How many guards that count calls (error rates, no-success) read each seam.
        private var counting: [SeamID: Int] = [:]
        /// Every read of a record through the collection (iteration, lookups): what tests count to show that adding
        /// guards is linear. A reference so reads, which do not mutate, can count; relaxed, since it only ever moves
        /// under the registry's lock.
        let reads = ReadCounter()

        final class ReadCounter: Sendable {
            private let count = Atomic(0)
            var value: Int { count.load(ordering: .relaxed) }
            func add() { count.add(1, ordering: .relaxed) }
        }

        var startIndex: Int { records.startIndex }
        var endIndex: Int { records.endIndex }

        subscript(position: Int) -> GuardRecord {
            get {
                reads.add()
                return records[position]
            }
            // In place: a guard's samples are appended to each round, never copied.
            _modify { yield &records[position] }
        }

        /// Adds a guard for `rule`, made by `source`; returns its id and its index.
        mutating func add(_ rule: Guard, source: String) -> (id: Int, index: Int) {
            let id = nextID
            nextID += 1
            records.append(GuardRecord(id: id, rule: rule, source: source))
            if let seam = rule.countedSeam { counting[seam, default: 0] += 1 }
            return (id, records.count - 1)
        }

        /// The index of guard `id`, if there is one: a binary search, since ids only grow.
        func index(of id: Int) -> Int? {
            var low = records.startIndex
            var high = records.endIndex
            while low < high {
                let middle = low + (high - low) / 2
                if records[middle].id < id { low = middle + 1 } else { high = middle }
            }
            return low < records.endIndex && records[low].id == id ? low : nil
        }

        /// Removes the guard at `index`, and returns it.
        mutating func remove(at index: Int) -> GuardRecord {
            let removed = records.remove(at: index)
            uncount(removed)
            return removed
        }

        /// Removes every guard `source` made; returns whether there were any.
        mutating func removeAll(from source: String) -> Bool {
            let before = records.count
            for record in records where record.source == source { uncount(record) }
            records.removeAll { $0.source == source }
            return records.count != before
        }

        /// How many guards count calls of `seam`.
        func countingGuards(of seam: SeamID) -> Int { counting[seam] ?? 0 }

        /// The seams whose calls guards count.
        var countedSeams: Dictionary<SeamID, Int>.Keys { counting.keys }

        private mutating func uncount(_ record: GuardRecord) {
            guard let seam = record.rule.countedSeam else { return }
            let left = (counting[seam] ?? 1) - 1
            counting[seam] = left > 0 ? left : nil
        }
    }

    /// A guard and what it has seen.
    struct GuardRecord {
        let id: Int
        let rule: Guard
        let source: String
        var state: GuardStatus.State = .armed
        /// The guarded seam's calls and errors (as its core counts them; they only grow) at some rounds, oldest
        /// first: for an error rate, the newest at or before the window's start is its base, and a sample is kept
        /// only once the last kept one is a 120th of the window old (`takeSample`) (at most 122 for any window); for
        /// no-success, the last success alone.
        var samples: [GuardSample] = []
        /// Health checks that failed in a row.
        var failures = 0

        var isTripped: Bool {
            if case .tripped = state { return true }
            return false
        }
    }
}

extension Guard {
    /// The seam whose calls this guard counts (nil for a health check, which calls its seam instead).
    var countedSeam: SeamID? {
        switch condition {
        case .errorRate(let seam, _, _, _), .noSuccess(let seam, _): seam
        case .check: nil
        }
    }
}
