/// Which user, request or task a call is made for: the key that a keyed probability (`10%@key` in specs,
/// ``ProbabilityScope/key``) hashes with its seed, so that "10% of users" means the same users on every call and in
/// every run with the same seed.
///
/// A server sets it per request, a test per task; it is a task-local value, so child tasks inherit it and other
/// tasks never see it:
/// ```swift
/// try registry.apply(spec: "10%@key throw(\"unavailable\")", to: "orders.load")
///
/// ChaosKey.$current.withValue(request.userID) {   // synchronous code
///     handle(request)
/// }
/// await ChaosKey.$current.withValue("user-42") {  // async code
///     await handle(request)
/// }
/// ```
/// The key is read only when a keyed probability is evaluated; unkeyed behaviours and seams with nothing applied
/// never look at it. A call made with no key (or an empty one) is not among the chosen keys: a keyed probability
/// never fires for it. `MischiefNetwork` can take the key from a request header instead (`ChaosNetwork`'s
/// `keyHeader`).
public enum ChaosKey {
    /// The key of the calls made in this task (or, outside any task, in this synchronous scope); nil when none
    /// was set.
    @TaskLocal public static var current: String?
}
