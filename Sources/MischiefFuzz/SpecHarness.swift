import Mischief

/// Spec text: parse → print → parse gives the same spec and the same canonical text; errors point inside the text.
let specHarness = FuzzHarness(name: "spec", summary: "spec parse → print → parse is stable; error columns inside") {
    bytes in
    let text = String(decoding: bytes, as: UTF8.self)
    let spec: Spec
    do throws(SpecError) {
        spec = try Spec(parsing: text)
    } catch {
        checkSpecError(error, in: text)
        return
    }
    let printed = spec.description
    let again: Spec
    do throws(SpecError) {
        again = try Spec(parsing: printed)
    } catch {
        fuzzCheck(
            false,
            "the canonical text \(printed.debugDescription) of \(text.debugDescription) does not parse: "
                + error.message)
        return
    }
    fuzzCheck(
        again.description == printed,
        "canonical text changed: \(printed.debugDescription) → "
            + again.description.debugDescription)
    fuzzCheck(again == spec, "the spec read back from \(printed.debugDescription) differs")
}

/// Checks that a spec error's column is in the text (or just past its end) and that it names the text.
func checkSpecError(_ error: SpecError, in text: String) {
    let scalars = text.unicodeScalars.count
    fuzzCheck(error.text == text, "the error carries other text than the spec's")
    fuzzCheck(
        (1...scalars + 1).contains(error.column),
        "column \(error.column) outside 1...\(scalars + 1) in \(text.debugDescription): \(error.message)")
    fuzzCheck(!error.message.isEmpty, "an error without a message")
}
