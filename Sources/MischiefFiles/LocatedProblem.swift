/// A decoding problem whose location is already known, carried inside a `DecodingError`'s context.
///
/// The decoder throws standard `DecodingError`s (so types that catch them keep working) and puts one of
/// these in `underlyingError`, so the exact location and message survive to the top.
struct LocatedProblem: Error {
    /// The diagnostic to report.
    var diagnostic: FileDiagnostic
}
