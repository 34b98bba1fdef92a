import MischiefConsole
import Testing

@testable import MischiefCurses

/// ncurses mouse events (`getmouse`'s `bstate`) as keys.
@Suite struct CursesMouseKeyTests {
    typealias Mask = CursesKeyDecoder.MouseMask

    @Test func masksAreNcursesVersion2() {
        #expect(Mask.click == 0o4 && Mask.doubleClick == 0o10)
        #expect(Mask.wheelUp == 0o2 << 15 && Mask.wheelDown == 0o2 << 20)
    }

    @Test func eventsBecomeMouseKeys() {
        #expect(CursesKeyDecoder.mouseKey(x: 3, y: 4, state: Mask.click) == .mouse(Mouse(.click, x: 3, y: 4)))
        let double = CursesKeyDecoder.mouseKey(x: 0, y: 0, state: Mask.doubleClick)
        #expect(double == .mouse(Mouse(.doubleClick, x: 0, y: 0)))
        #expect(CursesKeyDecoder.mouseKey(x: 1, y: 2, state: Mask.wheelDown) == .mouse(Mouse(.wheelDown, x: 1, y: 2)))
        #expect(CursesKeyDecoder.mouseKey(x: 1, y: 2, state: 0o1) == nil)  // a release alone
    }
}
