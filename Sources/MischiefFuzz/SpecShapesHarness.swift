import Mischief

/// A seam of its own, so the shapes harness applies what it builds without the catalogue.
private final class ShapesTarget: Sendable {
    let registry = Registry(sessionSeed: 11)
    let value = Seam<Int, Int, Never>("fuzz.value", title: "Value", category: "Fuzz", summary: "x + 1") { $0 + 1 }

    init() {
        do { try registry.register(value) } catch { fatalError("cannot register fuzz.value: \(error)") }
    }
}

private let shapesTarget = ShapesTarget()

/// The terms shapes are built from: wrappers and changes that compose, producers, and `seq`.
private let shapeTerms = ["delay(0ms)", "log(\"x\")", "pause(1s)", "return(1)", "1*off", "50%off", "seq(off, off)"]

/// Structure-aware spec text (issue #28): the input's bytes choose a shape (a long `+` composition, a long `->`
/// chain, nested `seq`s, nested quoted specs, a huge literal) and how many times it repeats, up to past every
/// limit. Whatever is built must parse or fail with an error inside the text, and what parses must apply and
/// revert on a seam without crashing the process, or be refused with a `MischiefError`.
let specShapesHarness = FuzzHarness(
    name: "spec-shapes", summary: "long compositions, fallbacks, nested seq and huge literals: bounded, no crash"
) { bytes in
    guard bytes.count >= 3 else { return }
    let shape = Int(bytes[0]) % 5
    let count = (Int(bytes[1]) << 8 | Int(bytes[2])) % 25_000 + 1
    let term = shapeTerms[Int(bytes.count > 3 ? bytes[3] : 0) % shapeTerms.count]
    let text: String
    switch shape {
    case 0: text = Array(repeating: term, count: count).joined(separator: " + ")
    case 1: text = Array(repeating: term, count: count).joined(separator: " -> ")
    case 2: text = String(repeating: "seq(", count: count % 200) + term + String(repeating: ")", count: count % 200)
    case 3:
        var nested = term
        for _ in 0..<(count % 12) {
            let escaped = nested.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
            nested = "seq(\"log + log + " + escaped + "\")"
        }
        text = nested
    default: text = "log(\"" + String(repeating: "a", count: count * 4) + "\")"
    }
    do throws(SpecError) {
        _ = try Spec(parsing: text)
    } catch {
        checkSpecError(error, in: text)
        return
    }
    do throws(MischiefError) {
        let applied = try shapesTarget.registry.apply(spec: text, to: "fuzz.value")
        shapesTarget.registry.revert(applied)
    } catch {
        fuzzCheck(!error.description.isEmpty, "a refusal without a message")
    }
}

extension String {
    /// The text with every `target` replaced by `replacement` (without Foundation).
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
