import Mischief
import MischiefConsole
import Testing

/// Compiles only if the console's public types are Sendable, so a driver can move them between tasks.
@Suite struct ConsoleSendableTests {
    func requireSendable<T: Sendable>(_: T.Type) {}

    @Test func publicTypesAreSendable() {
        requireSendable(ConsoleData.self)
        requireSendable(ConnectionState.self)
        requireSendable(ActionSignature.Draft.self)
        requireSendable(ConsoleError.self)
        requireSendable(ConsoleCommand.self)
        requireSendable(CommandResult.self)
        requireSendable(ConsoleEvent.self)
        requireSendable(ConsoleState.self)
        requireSendable(ConsoleState.Mode.self)
        requireSendable(ConsoleState.Message.self)
        requireSendable(ActionPicker.self)
        requireSendable(TextField.self)
        requireSendable(RateHistory.self)
        requireSendable(ScreenSize.self)
        requireSendable(ThemeInfo.self)
        requireSendable((any ConsoleController).self)
    }
}
