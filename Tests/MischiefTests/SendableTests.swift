import Mischief
import Testing

/// Compiles only if the public types are Sendable.
@Suite struct SendableTests {
    func requireSendable<T: Sendable>(_: T.Type) {}

    @Test func publicTypesAreSendable() {
        requireSendable(Seam<Int, Int, Never>.self)
        requireSendable(AsyncSeam<Int, Int, any Error>.self)
        requireSendable(Behaviour<Int, Int, any Error>.self)
        requireSendable(Call<Int, Int, Never>.self)
        requireSendable(AsyncCall<Int, Int, Never>.self)
        requireSendable(Registry.self)
        requireSendable(Snapshot.self)
        requireSendable(SeamSnapshot.self)
        requireSendable(LayerSnapshot.self)
        requireSendable(SeamUpdate.self)
        requireSendable(TargetHeader.self)
        requireSendable(ProfileStatus.self)
        requireSendable(Guard.self)
        requireSendable(GuardStatus.self)
        requireSendable(Change.self)
        requireSendable(Applied.self)
        requireSendable(Event.self)
        requireSendable(TargetView.self)
        requireSendable(Observation.self)
        requireSendable(SeamID.self)
        requireSendable(SeamInfo.self)
        requireSendable(SeamCounters.self)
        requireSendable(SeededGenerator.self)
        requireSendable(MischiefError.self)
        requireSendable(FileAccess.self)
        requireSendable(FileAccessError.self)
    }
}
