import Mischief

/// Where each part of the main screen goes at a given size, sized to what the panes hold.
///
/// Wide screens (≥ 110 columns) put the seam list on the left, as wide as its longest title and behaviour need
/// (``Content/listWidth``), and the detail pane over the target pane on the right, the target pane as tall as its
/// lines need while the detail keeps ``minimumDetailRows``. Narrower screens put the list on top and detail beside
/// target below it, the target as wide as its lines need within two fifths to half of the screen. Short screens drop
/// the lower panes (and the target pane first). The profile bar takes as many rows as its profiles need
/// (``ProfileBarView``), and the guard bar one row above it while the target has guards (``GuardBarView``).
struct ConsoleLayout: Sendable, Equatable {
    /// Columns from which the list and the other panes sit side by side.
    static let wideColumns = 110
    /// The fewest rows the detail pane keeps on a wide screen, borders included.
    static let minimumDetailRows = 12
    /// The fewest columns the right-hand panes keep on a wide screen.
    static let minimumRightColumns = 46

    /// What the panes would hold, in cells; nil when unknown (no data yet).
    struct Content: Sendable, Equatable {
        /// The seam list's width with every column, its titles and behaviours shown whole (borders included).
        var listWidth: Int?
        /// The target pane's lines and widest line.
        var targetLines: Int?
        var targetWidth: Int?

        static let unknown = Content()

        /// The widths of the seam list's fixed columns and borders: mark, calls, chaos, rate, status, gaps.
        static let listFixedColumns = 38
        /// The behaviour column's narrowest and widest.
        static let behaviourRange = 14...40

        /// What `state`'s data needs.
        init(_ state: ConsoleState) {
            guard let data = state.data else { return }
            var title = 4
            var behaviour = Self.behaviourRange.lowerBound
            for seam in data.seams {
                title = max(title, DisplayWidth.of(seam.title))
                behaviour = max(behaviour, DisplayWidth.of(state.behaviour(of: seam) ?? "—"))
            }
            listWidth = Self.listFixedColumns + min(title, 28) + min(behaviour, Self.behaviourRange.upperBound)
            targetLines = data.view.lines.count
            targetWidth = data.view.lines.reduce(DisplayWidth.of(data.view.title) + 6) {
                max($0, DisplayWidth.of($1.text) + 3)
            }
            if !data.scopes.isEmpty {
                // A live test session's tests take the target pane.
                let tests = TestsPaneView.lines(state)
                targetLines = max(1, tests.count)
                targetWidth = tests.reduce(DisplayWidth.of(TestsPaneView.title(state)) + 6) {
                    max($0, DisplayWidth.of($1.text) + 3)
                }
            }
        }

        init(listWidth: Int? = nil, targetLines: Int? = nil, targetWidth: Int? = nil) {
            self.listWidth = listWidth
            self.targetLines = targetLines
            self.targetWidth = targetWidth
        }
    }

    let header: Rect
    let list: Rect
    let detail: Rect?
    let target: Rect?
    /// The guard bar's row, while there are guards.
    let guards: Rect?
    let profiles: Rect
    let status: Rect

    /// The layout of `state` on `size` (by default its own).
    init(_ state: ConsoleState, size: ScreenSize? = nil) {
        let size = size ?? state.size
        self.init(
            size, profileRows: ProfileBarView.rowCount(state, size: size), guardRows: GuardBarView.rowCount(state),
            content: Content(state))
    }

    /// The layout at `size` with a profile bar of `profileRows` rows and a guard bar of `guardRows` rows above it,
    /// for panes holding `content`.
    init(_ size: ScreenSize, profileRows: Int = 1, guardRows: Int = 0, content: Content = .unknown) {
        let columns = size.columns
        header = Rect(x: 0, y: 0, width: columns, height: 2)
        profiles = Rect(x: 0, y: size.rows - 1 - profileRows, width: columns, height: profileRows)
        guards =
            guardRows > 0 ? Rect(x: 0, y: profiles.y - guardRows, width: columns, height: guardRows) : nil
        status = Rect(x: 0, y: size.rows - 1, width: columns, height: 1)
        let body = Rect(x: 0, y: 2, width: columns, height: max(0, size.rows - 3 - profileRows - guardRows))
        if columns >= Self.wideColumns {
            let listWidth = min(
                max(66, content.listWidth ?? columns * 3 / 5), columns - Self.minimumRightColumns)
            list = Rect(x: 0, y: body.y, width: listWidth, height: body.height)
            let right = Rect(x: listWidth, y: body.y, width: columns - listWidth, height: body.height)
            if body.height >= 16 {
                let wanted = content.targetLines.map { $0 + 2 } ?? body.height * 2 / 5
                let targetHeight = max(4, min(wanted, body.height - Self.minimumDetailRows))
                detail = Rect(x: right.x, y: right.y, width: right.width, height: body.height - targetHeight)
                target = Rect(
                    x: right.x, y: right.y + body.height - targetHeight, width: right.width, height: targetHeight)
            } else {
                detail = right
                target = nil
            }
        } else if body.height >= 14 {
            let lowerHeight = body.height * 9 / 20
            list = Rect(x: 0, y: body.y, width: columns, height: body.height - lowerHeight)
            let lowerY = list.maxY
            let targetWidth = min(columns / 2, max(columns * 2 / 5, content.targetWidth ?? columns * 2 / 5))
            let detailWidth = columns - targetWidth
            detail = Rect(x: 0, y: lowerY, width: detailWidth, height: lowerHeight)
            target = Rect(x: detailWidth, y: lowerY, width: targetWidth, height: lowerHeight)
        } else {
            list = body
            detail = nil
            target = nil
        }
    }

    /// How many list lines (categories and seams) fit under the column headings.
    var listRows: Int { max(1, list.height - 3) }

    /// The panes shown, in focus order.
    var panes: [ConsoleState.Pane] {
        [.list] + (detail == nil ? [] : [.detail]) + (target == nil ? [] : [.target])
    }
}
