import ArgumentParser
import Mischief
import MischiefDemo

/// `mischief spec`: check specs and try them without a target.
struct SpecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spec",
        abstract: "Check a spec and try it on a seam of a given type.",
        subcommands: [Check.self, Sample.self]
    )

    /// The shape of seam a spec is checked against, standing in for a target's seam.
    enum SeamType: String, ExpressibleByArgument, CaseIterable {
        case int, double, bool, string
        case optionalString = "string?"
    }

    struct SeamOptions: ParsableArguments {
        @Option(
            name: .long,
            help: "The output type of the seam: \(SeamType.allCases.map(\.rawValue).joined(separator: ", ")).")
        var type: SeamType = .string

        @Flag(name: .long, help: "The seam can throw (allows throw(\"message\")).")
        var throwing = false

        @Option(
            name: .long,
            help:
                "The session seed for random parts without a seed of their own (default: $MISCHIEF_SEED, else random; printed)."
        )
        var seed: UInt64?
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Parse a spec, explain it, and print its canonical form.",
            discussion: "Exits 1 with the error (column, caret, what was expected) when the spec is invalid.")

        @Argument(help: "The spec, such as '50%throw(\"flaky\") -> delay(200ms)'.")
        var spec: String

        @Option(
            name: .customLong("seam"),
            help:
                "Check against a catalogue seam of the demo target instead of a seam of --type: \(Trial.catalogue.joined(separator: ", "))."
        )
        var catalogueSeam: String?

        @OptionGroup var seam: SeamOptions

        func run() throws {
            let (registry, id) =
                try catalogueSeam.map { try Trial.catalogue(seam: $0, seed: seam.seed) }
                ?? {
                    let trial = try Trial(seam); return (trial.registry, Trial.id)
                }()
            do {
                let change = try registry.change(spec: spec, for: id)
                print("canonical: \(change.spec ?? change.behaviourText)")
                print(explanation(of: try Spec(parsing: spec), actions: registry.actions(for: id) ?? []))
            } catch {
                printError(error)
                throw ExitCode(1)
            }
        }
    }

    struct Sample: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply a spec to a seam whose original returns a fixed value, call it, and print the results.")

        @Argument(help: "The spec.")
        var spec: String

        @Option(name: .long, help: "How many calls to make.")
        var count = 5

        @OptionGroup var seam: SeamOptions

        func run() throws {
            let trial = try Trial(seam)
            var standardError = StandardError()
            print("session seed: \(trial.registry.sessionSeed)", to: &standardError)
            do {
                try trial.registry.apply(spec: spec, to: Trial.id, source: "mischief spec sample")
            } catch {
                printError(error)
                throw ExitCode(1)
            }
            for _ in 0..<count { print(trial.call()) }
        }
    }
}

/// One seam of the chosen type in a registry of its own.
struct Trial {
    /// The demo target's seams, which stand for the catalogue's.
    static let catalogue = [
        "clock.now", "location.current", "l10n.string", "model.user.decode", "model.user", "net.request",
    ]

    /// A registry holding the demo target's seams, and the id of the one named.
    static func catalogue(seam name: String, seed: UInt64?) throws -> (Registry, SeamID) {
        let registry = Registry(sessionSeed: seed)
        _ = try DemoTarget(registry: registry)
        guard registry.seams.contains(where: { $0.id.description == name }) else {
            let hint = suggestion(for: name, among: catalogue).map { " Did you mean '\($0)'?" } ?? ""
            throw ValidationError("no catalogue seam '\(name)'.\(hint) Seams: \(catalogue.joined(separator: ", "))")
        }
        return (registry, SeamID(stringLiteral: name))
    }

    static let id: SeamID = "trial.value"
    let registry: Registry
    let call: () -> String

    init(_ options: SpecCommand.SeamOptions) throws {
        let registry = Registry(sessionSeed: options.seed)
        self.registry = registry
        func make<Output: Sendable>(_ value: Output) throws -> () -> String {
            if options.throwing {
                let seam = Seam<Void, Output, any Error>(
                    Trial.id, title: "Trial", category: "Trial", summary: "returns a fixed value"
                ) { value }
                try registry.register(seam)
                return {
                    do { return String(describing: try seam()) } catch { return "error: \(error)" }
                }
            }
            let seam = Seam<Void, Output, Never>(
                Trial.id, title: "Trial", category: "Trial", summary: "returns a fixed value"
            ) { value }
            try registry.register(seam)
            return { String(describing: seam()) }
        }
        switch options.type {
        case .int: call = try make(42)
        case .double: call = try make(4.2)
        case .bool: call = try make(true)
        case .string: call = try make("original")
        case .optionalString: call = try make(String?.some("original"))
        }
    }
}

/// A term-by-term explanation of a spec.
func explanation(of spec: Spec, actions: [ActionSignature]) -> String {
    var lines: [String] = []
    for (index, composition) in spec.alternatives.enumerated() {
        let lead = index == 0 ? "each call:" : "otherwise:"
        lines.append(lead)
        for term in composition.terms {
            var line = "  \(term.action)"
            if let signature = actions.first(where: { $0.name == term.action }) { line += " — \(signature.summary)" }
            if !term.arguments.isEmpty { line += " [\(term.arguments.map(\.description).joined(separator: ", "))]" }
            if let percent = term.probability {
                line +=
                    term.probabilityScope == .key
                    ? "; for \(percent.formatted)% of keys, the same keys every time (never for a call without a key)"
                    : "; on \(percent.formatted)% of calls"
            }
            if let count = term.count { line += "; for the first \(count) call\(count == 1 ? "" : "s") that reach it" }
            lines.append(line)
        }
    }
    if let last = spec.alternatives.last?.terms.first, last.probability != nil || last.count != nil {
        lines.append("  (a call nothing fires for runs the original)")
    }
    return lines.joined(separator: "\n")
}

func printError(_ error: any Error) {
    printError("\(error)")
}

extension Double {
    var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}
