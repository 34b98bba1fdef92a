import CNcurses
import Glibc
import Mischief
import MischiefConsole
import Testing

@testable import MischiefCurses

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Hostile text everywhere a target writes (see ``HostileText``), rendered at sizes from the minimum to 250×80 with
/// each pane scrolled to both ends, the picker, event log, help, filter and save prompt open, and then converted for
/// ncurses: never a crash, every row exactly the screen's width in display columns, and no control, format or
/// bidirectional character in a cell or in what ncurses is given.
@Suite struct HostileTextRenderTests {
    /// Generated cases per shard; each renders the ``steps(typing:and:)`` screens at one size, plus three sizes below
    /// the minimum. Shards run in parallel.
    static let cases = 50
    /// The sizes of shard 0's first cases: the extremes and two common sizes.
    static let sizes = [
        ScreenSize.minimum, ScreenSize(rows: 80, columns: 250), ScreenSize(rows: 13, columns: 51),
        ScreenSize(rows: 79, columns: 249), ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 40, columns: 120),
    ]
    /// Below the minimum: the console only says which size it needs.
    static let tooSmall = [
        ScreenSize(rows: 1, columns: 1), ScreenSize(rows: 11, columns: 49), ScreenSize(rows: 5, columns: 20),
    ]

    init() {
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }

    @Test(arguments: 0..<4) func hostileTextNeverBreaksARow(shard: Int) async {
        let failures = await Self.failures(shard: shard)
        #expect(failures.isEmpty, "\(failures.prefix(3).joined(separator: "\n"))")
    }

    /// What goes wrong in one shard's cases (at most a few). Yields after every screen, so that this CPU-bound loop
    /// does not hold one of the cooperative pool's threads (two on two cores) while other tests wait on timers.
    static func failures(shard: Int) async -> [String] {
        var text = HostileText(seed: 0x686F_7374 + UInt64(shard))
        var failures: [String] = []
        var widths: [String: Int] = [:]  // cell texts checked already, and their widths
        for index in 0..<cases where failures.count < 3 {
            let first = shard == 0 && index < Self.sizes.count
            let size = first ? sizes[index] : size(&text, large: index % 10 == 0)
            var state = ConsoleState(size: size, timeZone: TimeZone(secondsFromGMT: 0)!)
            state.show(text.consoleData())
            for (step, keys) in steps(typing: text.next(), and: text.next()).enumerated() {
                for key in keys {
                    _ = Console.update(&state, .key(key))
                }
                await Task.yield()
                let grid = Console.render(state, size: size, theme: index % 2 == 0 ? .standard : .monochrome)
                failures += problems(in: grid, size: size, widths: &widths).map {
                    "shard \(shard) case \(index) at \(size.columns)x\(size.rows), step \(step): \($0)"
                }
            }
            for small in tooSmall {
                failures += problems(
                    in: Console.render(state, size: small, theme: .standard), size: small, widths: &widths)
            }
        }
        return failures
    }

    /// A random usable size: up to 250×80 when `large`, else up to 130×45 (cheaper to check, and most terminals).
    static func size(_ text: inout HostileText, large: Bool) -> ScreenSize {
        large
            ? ScreenSize(rows: 12 + text.count(below: 69), columns: 50 + text.count(below: 201))
            : ScreenSize(rows: 12 + text.count(below: 34), columns: 50 + text.count(below: 81))
    }

    /// The keys before each screen checked: every pane scrolled to both ends, then the overlays and prompts.
    static func steps(typing filter: String, and name: String) -> [[Key]] {
        [
            [], [.end], [.tab, .end], [.home], [.tab, .end], [.home], [.enter], [.enter],
            [.escape, .character("e"), .end], [.home], [.escape, .character("?"), .end],
            [.escape, .character("/")] + keys(filter), [.enter, .character("s")] + keys(name),
        ]
    }

    /// The keys that type `text`, one per scalar as a terminal delivers them.
    static func keys(_ text: String) -> [Key] {
        text.unicodeScalars.prefix(12).map { KeyInputDecoder.keys(in: Array(String($0).utf8)) }.joined().filter {
            $0 != .escape && $0 != .enter
        }
    }

    /// What is wrong with a rendered screen and its conversion for ncurses, row by row.
    static func problems(in grid: CellGrid, size: ScreenSize, widths: inout [String: Int]) -> [String] {
        guard grid.width == size.columns, grid.height == size.rows else {
            return ["grid \(grid.width)x\(grid.height) for a \(size.columns)x\(size.rows) screen"]
        }
        var problems: [String] = []
        for y in 0..<grid.height {
            let row = grid.row(y)
            var columns = 0
            var rightHalf = false
            for x in 0..<grid.width {
                let cell = row[row.startIndex + x]
                if rightHalf {
                    rightHalf = false
                    if !cell.isContinuation {
                        problems.append("row \(y), column \(x): a wide cell's right half is [\(hex(cell.text))]")
                    }
                    continue
                }
                guard let width = widths[cell.text] ?? width(ofCell: cell.text) else {
                    problems.append("row \(y), column \(x): cell [\(hex(cell.text))]")
                    columns += 1
                    continue
                }
                widths[cell.text] = width
                columns += width
                rightHalf = width == 2
            }
            if columns != grid.width {
                problems.append("row \(y): \(columns) columns on a screen \(grid.width) wide")
            }
            let writes = CursesCellText.row(row, visibleWidth: grid.width)
            let written = writes.reduce(0) { $0 + $1.columns }
            if written != grid.width {
                problems.append("row \(y): ncurses is given \(written) columns on a screen \(grid.width) wide")
            }
            for write in writes where !isPrintable(write) {
                problems.append("row \(y): ncurses is given \(write.characters.map { String($0, radix: 16) })")
            }
        }
        return problems
    }

    /// The columns a cell's text takes (1 or 2), or `nil` when it is not one printable grapheme cluster.
    static func width(ofCell text: String) -> Int? {
        if text.utf8.count == 1, let byte = text.utf8.first {
            return (0x20..<0x7F).contains(byte) ? 1 : nil  // ASCII: most cells, checked quickly
        }
        guard text.count == 1, text.unicodeScalars.count <= CellText.maxScalars,
            !text.unicodeScalars.contains(where: isForbidden)
        else { return nil }
        let width = DisplayWidth.of(text)
        return (1...2).contains(width) ? width : nil
    }

    /// The scalars of `text` in hex, for messages in ASCII.
    static func hex(_ text: String) -> String {
        text.unicodeScalars.map { "U+" + String($0.value, radix: 16) }.joined(separator: " ")
    }

    /// Whether a scalar must never reach a cell: a control or a format character the grid removes.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        CellText.isLineControl(scalar) || CellText.isRemoved(scalar)
    }

    /// Whether a write is one printable base character of the width it claims, then only combining marks.
    static func isPrintable(_ write: CursesCellText.Write) -> Bool {
        if write.count == 1, (0x20..<0x7F).contains(write[0]) {
            return write.width == 1
        }
        guard write.count >= 1, write.count <= CursesCellText.maxCharacters, Int(cn_wcwidth(write[0])) == write.width
        else { return false }
        for index in 0..<write.count {
            guard let scalar = Unicode.Scalar(UInt32(bitPattern: write[index])),
                scalar.properties.generalCategory != .control, scalar.properties.generalCategory != .format,
                index == 0 || cn_wcwidth(write[index]) == 0
            else { return false }
        }
        return true
    }
}
