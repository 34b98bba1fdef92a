import MischiefConsole
import Synchronization
import Testing

@Suite struct MemoryTerminalTests {
    @Test func recordsGridsAndDeliversEvents() throws {
        let terminal = MemoryTerminal(size: ScreenSize(rows: 5, columns: 20))
        let keys = Mutex<[Key]>([])
        let sizes = Mutex<[ScreenSize]>([])
        let signals = Mutex<[TerminalSignal]>([])
        try terminal.start(
            onKey: { key in keys.withLock { $0.append(key) } },
            onResize: { size in sizes.withLock { $0.append(size) } },
            onSignal: { signal in signals.withLock { $0.append(signal) } }
        )
        #expect(terminal.isRunning)
        #expect(terminal.size == ScreenSize(rows: 5, columns: 20))

        var grid = CellGrid(width: 20, height: 5, fill: .background)
        grid.put("hi", x: 0, y: 0, style: .text)
        terminal.draw(grid)
        #expect(terminal.lastGrid == grid)
        #expect(terminal.drawCount == 1)

        terminal.push([.character("q"), .control("c"), .function(5)])
        terminal.resize(to: ScreenSize(rows: 8, columns: 30))
        terminal.send(.terminate)
        #expect(keys.withLock { $0 } == [.character("q"), .control("c"), .function(5)])
        #expect(sizes.withLock { $0 } == [ScreenSize(rows: 8, columns: 30)])
        #expect(terminal.size == ScreenSize(rows: 8, columns: 30))
        #expect(signals.withLock { $0 } == [.terminate])

        terminal.stop()
        terminal.stop()
        #expect(!terminal.isRunning)
        #expect(terminal.stopCount == 1)
    }

    @Test func exitStatuses() {
        #expect(TerminalSignal.interrupt.exitStatus == 130)
        #expect(TerminalSignal.terminate.exitStatus == 143)
        #expect(TerminalSignal.hangup.exitStatus == 129)
    }
}
