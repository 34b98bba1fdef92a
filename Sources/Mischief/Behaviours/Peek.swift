/// Whether the calls made here are peeks (`Seam.peek`, `AsyncSeam.peek`): a console, or the catalogue clock's
/// scheduler, reading what a seam gives, not the program calling it.
///
/// Behaviours that act on the world rather than on the value let a peek through at once: `pause` does not hold it,
/// `delay` does not wait, and `crash` does not end the process (the peek gets what the behaviour beneath gives). A
/// read for display must never hold a console's thread or end the process; before, applying `pause` to the clock
/// held the thread that applied it for the pause's maximum, since the clock's scheduler peeks at every change.
enum Peek {
    @TaskLocal static var isActive = false
}
