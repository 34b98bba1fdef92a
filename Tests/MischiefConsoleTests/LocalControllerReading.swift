import Mischief
import MischiefConsole

extension LocalController {
    /// What a new reader of ``updates()`` is sent first: everything, as of now. (Reading it ends the stream handed
    /// out before, as a console reading again would.)
    func everything() async -> StreamDelta {
        for await update in updates() {
            if case .reset(let delta) = update { return delta }
        }
        preconditionFailure("a controller's updates ended before their first")
    }

    /// What a console shows after reading ``everything()``.
    func shown() async -> ConsoleData {
        ConsoleData(everything: await everything(), eventLimit: 200)
    }
}
