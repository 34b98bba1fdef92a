/// A rectangle of cells on the screen.
struct Rect: Sendable, Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The area inside a one-cell border.
    var inner: Rect {
        Rect(x: x + 1, y: y + 1, width: max(0, width - 2), height: max(0, height - 2))
    }

    /// The column just right of the rectangle.
    var maxX: Int { x + width }
    /// The row just below the rectangle.
    var maxY: Int { y + height }
}

/// Where each part of the main screen goes at a given size.
///
/// Wide screens (≥ 110 columns) put the seam list on the left and the detail pane over the target pane on the
/// right; narrower ones put the list on top and detail beside target below it. Short screens drop the lower
/// panes (and the target pane first). The profile bar takes as many rows as its profiles need (``ProfileBarView``).
struct ConsoleLayout: Sendable, Equatable {
    /// Columns from which the list and the other panes sit side by side.
    static let wideColumns = 110

    let header: Rect
    let list: Rect
    let detail: Rect?
    let target: Rect?
    let profiles: Rect
    let status: Rect

    /// The layout of `state` on its screen.
    init(_ state: ConsoleState) {
        self.init(state.size, profileRows: ProfileBarView.rowCount(state, size: state.size))
    }

    /// The layout at `size` with a profile bar of `profileRows` rows.
    init(_ size: ScreenSize, profileRows: Int = 1) {
        let columns = size.columns
        header = Rect(x: 0, y: 0, width: columns, height: 2)
        profiles = Rect(x: 0, y: size.rows - 1 - profileRows, width: columns, height: profileRows)
        status = Rect(x: 0, y: size.rows - 1, width: columns, height: 1)
        let body = Rect(x: 0, y: 2, width: columns, height: max(0, size.rows - 3 - profileRows))
        if columns >= Self.wideColumns {
            let listWidth = max(60, columns * 3 / 5)
            list = Rect(x: 0, y: body.y, width: listWidth, height: body.height)
            let right = Rect(x: listWidth, y: body.y, width: columns - listWidth, height: body.height)
            if body.height >= 16 {
                let detailHeight = body.height * 3 / 5
                detail = Rect(x: right.x, y: right.y, width: right.width, height: detailHeight)
                target = Rect(
                    x: right.x, y: right.y + detailHeight, width: right.width,
                    height: body.height - detailHeight)
            } else {
                detail = right
                target = nil
            }
        } else if body.height >= 14 {
            let lowerHeight = body.height * 9 / 20
            list = Rect(x: 0, y: body.y, width: columns, height: body.height - lowerHeight)
            let lowerY = list.maxY
            let detailWidth = columns * 3 / 5
            detail = Rect(x: 0, y: lowerY, width: detailWidth, height: lowerHeight)
            target = Rect(x: detailWidth, y: lowerY, width: columns - detailWidth, height: lowerHeight)
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
