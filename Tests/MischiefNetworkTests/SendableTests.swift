import MischiefNetwork
import Testing

/// Compiles only if the public types are Sendable.
@Suite struct SendableTests {
    func requireSendable<T: Sendable>(_: T.Type) {}

    @Test func publicTypesAreSendable() {
        requireSendable(ChaosNetwork.self)
        requireSendable(NetworkRequest.self)
        requireSendable(NetworkResponse.self)
        requireSendable(NetworkResponse.Outcome.self)
        requireSendable(NetworkReply.self)
        requireSendable(NetworkMatch.self)
        requireSendable(NetworkMatchError.self)
        requireSendable(NetworkRule.self)
    }
}
