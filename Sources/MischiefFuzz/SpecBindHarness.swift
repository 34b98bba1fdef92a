import Foundation
import Mischief
import MischiefCatalog
import MischiefNetwork

/// A model for the catalogue's model seams.
private struct FuzzModel: Codable, Sendable {
    var name: String
    var age: Int
    var tags: [String]
    var nickname: String?
}

/// The catalogue seams specs are bound on: clock, location, strings, models and network, in one registry.
private final class BindingTarget: Sendable {
    let registry = Registry(sessionSeed: 7)
    let strings = ChaosStrings(id: "l10n.string") { $0.value ?? $0.key }
    let seams: [SeamID]

    init() {
        let clock = ChaosClock(id: "clock.now")
        let location = ChaosLocation(
            id: "location.current", now: { Date(timeIntervalSince1970: 1_700_000_000) },
            original: { () throws(LocationError) in throw .unavailable })
        let model = ChaosModel<FuzzModel>("user")
        let network = ChaosNetwork(id: "net.request", registry: registry)
        do {
            try registry.register(clock.seam, location.seam, strings.seam, model.decoding, model.values)
            try registry.register(network.seam)
        } catch {
            fatalError("cannot register the catalogue seams: \(error)")
        }
        seams = [
            clock.seam.info.id, location.seam.info.id, strings.seam.info.id, model.decoding.info.id,
            model.values.info.id, network.seam.info.id,
        ]
    }
}

private let bindingTarget = BindingTarget()

/// Spec text bound on each catalogue seam: never a crash; an invalid spec's error column is inside the text.
///
/// The first byte picks the seam; the rest is the spec. Specs that would read files (`route`, `respond(file:)`)
/// are skipped: file access is confined elsewhere and must not reach the file system from a fuzzer.
let specBindHarness = FuzzHarness(name: "spec-bind", summary: "specs bound on catalogue seams; errors inside text") {
    bytes in
    guard let first = bytes.first else { return }
    let seam = bindingTarget.seams[Int(first) % bindingTarget.seams.count]
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
    if let spec = try? Spec(parsing: text), touchesFiles(spec) { return }
    let registry = bindingTarget.registry
    do throws(MischiefError) {
        _ = try registry.change(spec: text, for: seam, seed: 1)
    } catch {
        if case .invalidSpec(_, let specError) = error { checkSpecError(specError, in: text) }
        return
    }
    // Strings transforms run in the caller's lookup: apply, look up once, revert (no delays, they would sleep; no
    // crash, which binds but is refused where crashes are not allowed, as here, and would end the fuzzer if not).
    guard seam == bindingTarget.strings.seam.info.id, !text.contains("delay"), !text.contains("crash") else { return }
    do throws(MischiefError) {
        try registry.apply(spec: text, to: seam)
    } catch {
        fuzzCheck(false, "\(text.debugDescription) binds but does not apply: \(error)")
    }
    _ = bindingTarget.strings.string("greeting %@ {name} <b>", default: "Hello %@, {name} <b>x</b> 100%")
    registry.revertAll()
}

/// Whether a spec names an action that reads a file when applied: `route`, or `respond` with a file.
private func touchesFiles(_ spec: Spec) -> Bool {
    spec.alternatives.contains { composition in
        composition.terms.contains { term in
            if term.action == "route" { return true }
            if term.action == "respond",
                term.arguments.contains(where: { $0.label == "file" })
                    || term.arguments.filter({ $0.label == nil }).count >= 4
            {
                return true
            }
            return term.arguments.contains { touchesFiles($0.value) }
        }
    }
}

private func touchesFiles(_ value: Spec.Value) -> Bool {
    switch value {
    case .spec(let spec): return touchesFiles(spec)
    case .array(let values): return values.contains(where: touchesFiles)
    case .object(let members): return members.contains { touchesFiles($0.value) }
    default: return false
    }
}
