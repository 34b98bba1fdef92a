import Foundation
import Mischief

/// The clock's behaviours in code, the same ones its spec actions build:
/// ```swift
/// let newYear2030 = Date(timeIntervalSince1970: 1_893_456_000)
/// try registry.apply(clock.seam, .freeze(at: newYear2030).shifted(by: .seconds(86_400)))
/// try registry.apply(clock.seam, .dilate(by: 60))
/// ```
/// Each behaviour value owns the offset that ``ChaosClock/advance(by:)`` moves, created with the value: apply
/// a fresh value (or the spec again) to start over, since applying the same value twice keeps how far it was
/// advanced.
extension Behaviour where Input == Void, Output == Timeline, Failure == Never {
    /// Real time plus `duration` (`shift(+1d)`); sleeps last as long as without it.
    public static func shift(by duration: Duration) -> Behaviour {
        .transform(Timeline.shifting(by: duration)).labelled("shift(\(SpecDuration(duration)))")
    }

    /// This behaviour's time plus `duration` (`freeze(…) + shift(+1d)`).
    public func shifted(by duration: Duration) -> Behaviour {
        map(Timeline.shifting(by: duration)).labelled("\(self) + shift(\(SpecDuration(duration)))")
    }

    /// Time stands still at `date` (`freeze(2030-01-01)`); sleepers wake only when the clock is advanced or
    /// the behaviour is reverted.
    public static func freeze(at date: Date) -> Behaviour {
        let at = Instants.duration(date)
        return .constant(.stopped(at: at)).labelled("freeze(\(Instants.text(at)))")
    }

    /// Time stands still, at `date` or now, and moves only by ``ChaosClock/advance(by:)`` (`virtual`).
    public static func virtual(from date: Date? = nil) -> Behaviour {
        let from = date.map(Instants.duration) ?? Instants.realNow()
        return .constant(.stopped(at: from)).labelled(date == nil ? "virtual" : "virtual(\(Instants.text(from)))")
    }

    /// Time runs `factor` times faster from now (`dilate(60)`): a sleep of d ends after d / factor of real time.
    ///
    /// - Precondition: `factor` is greater than 0 and at most 10⁹ (0.5 runs at half speed).
    public static func dilate(by factor: Double) -> Behaviour {
        precondition(Timeline.dilationRange.contains(factor), Timeline.dilationProblem(factor))
        return .constant(.dilated(by: factor)).labelled("dilate(\(Spec.Value.number(factor).description))")
    }
}

extension Timeline {
    /// The factors `dilate` accepts.
    static let dilationRange: ClosedRange<Double> = .leastNonzeroMagnitude...1e9

    /// Why a dilation factor is refused.
    static func dilationProblem(_ factor: Double) -> String {
        "dilate needs a factor greater than 0 and at most 1e9 (2 runs twice as fast, 0.5 at half speed), got "
            + Spec.Value.number(factor).description
    }

    /// A stopped timeline with an advance offset of its own.
    static func stopped(at date: Duration) -> Timeline {
        Timeline(base: .stopped(at: date), progress: Progress())
    }

    /// A timeline running `factor` times as fast as real time from now on, with an advance offset of its own.
    static func dilated(by factor: Double) -> Timeline {
        let now = Instants.realNow()
        return Timeline(base: .dilated(realAnchor: now, chaosAnchor: now, factor: factor), progress: Progress())
    }

    /// A transform adding `duration`, with one advance offset for timelines that have none (the real one).
    static func shifting(by duration: Duration) -> @Sendable (Timeline) -> Timeline {
        let progress = Progress()
        let seconds = duration.seconds
        return { $0.shifted(by: duration, seconds: seconds, progress: progress) }
    }
}
