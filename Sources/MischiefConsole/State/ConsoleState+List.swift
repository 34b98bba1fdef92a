import Mischief

extension ConsoleState {
    /// Whether a seam matches the filter: its title, id, category or behaviour contains the filter text,
    /// ignoring case, or one of its layers, a profile that changes it or one of its events does. Every seam matches
    /// an empty filter.
    public func matchesFilter(_ seam: SeamSnapshot) -> Bool {
        let needle = filter.text.lowercased()
        return Self.matches(seam, needle: needle)
            || (data.map { Self.seamsMatchedElsewhere($0, needle: needle).contains(seam.id) } ?? false)
    }

    /// Whether a seam matches a lower-case filter text.
    static func matches(_ seam: SeamSnapshot, needle: String) -> Bool {
        guard !needle.isEmpty else { return true }
        return seam.title.lowercased().contains(needle) || seam.id.rawValue.contains(needle)
            || seam.category.lowercased().contains(needle)
            || (seam.behaviourText?.lowercased().contains(needle) ?? false)
    }

    /// Rebuilds ``lines`` from the data and the filter, and keeps the selection on a listed seam.
    mutating func rebuildLines() {
        guard let data else {
            lines = []
            selectedLine = nil
            return
        }
        var order: [String] = []
        var groups: [String: [Int]] = [:]
        let needle = filter.text.lowercased()
        let elsewhere = Self.seamsMatchedElsewhere(data, needle: needle)
        for (index, seam) in data.seams.enumerated()
        where Self.matches(seam, needle: needle) || elsewhere.contains(seam.id) {
            if groups[seam.category] == nil {
                order.append(seam.category)
            }
            groups[seam.category, default: []].append(index)
        }
        var rebuilt: [ListLine] = []
        rebuilt.reserveCapacity(order.count + data.seams.count)
        for category in order {
            let members = groups[category] ?? []
            rebuilt.append(.category(category, count: members.count))
            rebuilt.append(contentsOf: members.map(ListLine.seam))
        }
        lines = rebuilt
        let line = selection.flatMap { id in
            lines.firstIndex { if case .seam(let index) = $0 { data.seams[index].id == id } else { false } }
        }
        if let line {
            selectedLine = line
        } else {
            select(line: lines.isEmpty ? nil : 1)
        }
        scrollListToSelection()
    }

    /// Moves the selection by `delta` seam lines (category headings are skipped), clamped to the list.
    mutating func moveSelection(by delta: Int) {
        guard let current = selectedLine, !lines.isEmpty else { return }
        let target = min(max(0, current + delta), lines.count - 1)
        select(line: snapped(target, upwards: delta < 0))
    }

    /// Selects the first (or last) seam of the list.
    mutating func selectEdge(last: Bool) {
        guard !lines.isEmpty else { return }
        select(line: last ? lines.count - 1 : 1)
    }

    /// Selects the seam on `line` (nil selects nothing) and resets the detail pane's scroll when it changes.
    mutating func select(line: Int?) {
        let previous = selection
        selectedLine = line
        if let line, let data, case .seam(let index) = lines[line] {
            selection = data.seams[index].id
        } else {
            selection = nil
        }
        if selection != previous {
            detailScroll = 0
        }
        scrollListToSelection()
    }

    /// Keeps the selected line (and its category heading, when just above it) in view.
    mutating func scrollListToSelection() {
        listTop = Self.listTop(
            previous: listTop, selected: selectedLine, rows: ConsoleLayout(self).listRows, lines: lines)
    }

    /// The first list line to show so that the selected line is visible, moving as little as possible from
    /// `previous`.
    static func listTop(previous: Int, selected: Int?, rows: Int, lines: [ListLine]) -> Int {
        var top = previous
        if let selected {
            if selected < top {
                top = selected
            }
            if selected >= top + rows {
                top = selected - rows + 1
            }
            if selected == top, selected > 0, rows > 1, case .category = lines[selected - 1] {
                top = selected - 1
            }
        }
        return max(0, min(top, lines.count - rows))
    }

    /// A seam line at or next to `line`: a category heading yields the seam before it when moving up (if any),
    /// else the first seam under it.
    private func snapped(_ line: Int, upwards: Bool) -> Int {
        guard case .category = lines[line] else { return line }
        return upwards && line > 0 ? line - 1 : line + 1
    }
}
