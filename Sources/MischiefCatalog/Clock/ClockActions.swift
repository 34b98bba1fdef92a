import Mischief

/// The spec actions of the clock's seam: `shift`, `freeze`, `dilate` and `virtual`.
///
/// `shift` changes the time of what comes before it, so it composes: `freeze(2030-01-01) + shift(+1d)`. The
/// others make the timeline. Each builds its advance offset when the spec is built, which `apply(spec:to:)` does
/// on every apply, so reverting and applying again starts afresh.
enum ClockActions {
    typealias Action = SeamAction<Void, Timeline, Never>

    static let oneDay = Spec.Value.duration(SpecDuration(.seconds(86_400)))

    static var all: [Action] { [shift, freeze, dilate, virtual] }

    static let shift = Action.transform(
        ActionSignature(
            "shift", summary: "moves the time by an offset; sleeps last as long as without it",
            parameters: [.init("by", .duration, step: oneDay, summary: "how far: +1d, -90m, +10y")],
            composes: true)
    ) { action, _ in
        Timeline.shifting(by: action.duration("by")!)
    }

    static let freeze = Action.produce(
        ActionSignature(
            "freeze", summary: "stops the time at a date; sleepers wake only when time is advanced",
            parameters: [.init("at", .date, step: oneDay, summary: "the ISO 8601 date, such as 2030-01-01T09:00Z")],
            composes: true)
    ) { action, _ in
        .constant(.stopped(at: Instants.duration(action.date("at")!)))
    }

    static let dilate = Action.produce(
        ActionSignature(
            "dilate", summary: "time runs N times faster from now; a sleep of d lasts d/N",
            parameters: [.init("factor", .number, step: .number(1), summary: "how many times faster: 60, 2, 0.5")],
            composes: true)
    ) { (action, context) throws(SpecError) in
        let factor = action.number("factor")!
        guard Timeline.dilationRange.contains(factor) else {
            throw context.error(Timeline.dilationProblem(factor), argument: "factor", of: action)
        }
        return .constant(.dilated(by: factor))
    }

    static let virtual = Action.produce(
        ActionSignature(
            "virtual", summary: "time stands still and moves only when the clock is advanced",
            parameters: [
                .init("from", .date, default: .null, step: oneDay, summary: "the start date; default: now")
            ],
            composes: true)
    ) { action, _ in
        .constant(.stopped(at: action.date("from").map(Instants.duration) ?? Instants.realNow()))
    }
}
