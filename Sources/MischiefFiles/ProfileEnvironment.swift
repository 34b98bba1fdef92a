import Foundation
import Mischief

/// Chaos from a profile file named in the environment: `MISCHIEF_PROFILE=path.yaml`, for jobs that cannot run a
/// console (the file form of `MISCHIEF_APPLY`).
///
/// ```sh
/// MISCHIEF_PROFILE=ci-chaos.yaml swift run orders-server
/// ```
/// The control server reads it when it starts, and so does `mischief demo`; a program without either calls
/// ``applyFromEnvironment(to:environment:)`` once at start. The whole file is checked first: one problem (YAML, a seam id
/// that is not one, a spec that does not parse, a name used twice) and nothing is applied, and stderr says what
/// and where (`path:line:column`). Every entry of every profile in the file then applies as its seam registers,
/// with the source `MISCHIEF_PROFILE <profile name>`, the profile's seed and its `ttl` (an entry's own first); if one does not fit its seam,
/// everything the file applied is reverted and stderr and the event log say why. It is announced on stderr.
public enum ProfileEnvironment {
    /// The variable: `MISCHIEF_PROFILE`.
    public static let variable = "MISCHIEF_PROFILE"

    private static let done = Locked<Set<ObjectIdentifier>>([])

    /// Applies the file `MISCHIEF_PROFILE` names to `registry` as its seams register; once per registry (a
    /// later call does nothing). Returns whether the variable was set and its file accepted.
    @discardableResult
    public static func applyFromEnvironment(
        to registry: Registry = .shared, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        guard KillSwitch.isChaosCompiledIn, let path = environment[variable], !path.isEmpty else { return false }
        guard done.withLock({ $0.insert(ObjectIdentifier(registry)).inserted }) else { return false }
        return apply(path: path, to: registry) { line in
            FileHandle.standardError.write(Data((Registry.printable(line) + "\n").utf8))
        }
    }

    /// Checks the file at `path` and applies it to `registry` as its seams register, writing announcements and
    /// problems through `diagnostics`.
    static func apply(path: String, to registry: Registry, diagnostics: @escaping @Sendable (String) -> Void) -> Bool {
        do throws(FileErrors) {
            let chaos = try chaos(in: path)
            registry.applyWhenRegistered(chaos, diagnostics: diagnostics)
            return true
        } catch {
            let problems = error.errors.isEmpty ? error.diagnostics : error.errors
            let lines = problems.map { "mischief: \(variable)=\(path): \($0)" }
            diagnostics(lines.joined(separator: "\n") + "\nmischief: nothing from \(variable) is applied")
            registry.report(
                seam: nil,
                message: "\(variable)=\(path): \(problems.first.map(\.description) ?? "unreadable"); "
                    + "nothing from it is applied", kind: .problem, source: variable)
            return false
        }
    }

    /// The file's entries, in profile and file order, or every problem found in it.
    static func chaos(in path: String) throws(FileErrors) -> EnvironmentChaos {
        let profiles = try ProfileFile.load(contentsOf: URL(fileURLWithPath: path))
        let problems = ProfileFile.check(profiles) { entry in
            do throws(MischiefError) { _ = try SeamID(entry.seam) } catch { return .seam(error.description) }
            do throws(SpecError) { _ = try Spec(parsing: entry.spec) } catch {
                return .spec(error.message, column: error.column)
            }
            return nil
        }.filter { $0.severity == .error }
        guard problems.isEmpty else { throw FileErrors(problems) }
        var entries: [SeamSpec] = []
        for profile in profiles {
            for entry in profile.entries {
                // Checked above: the id is well formed.
                guard let seam = try? SeamID(entry.seam) else { continue }
                entries.append(
                    .init(
                        seam: seam, spec: entry.spec, seed: profile.seed, source: "\(variable) \(profile.name)",
                        ttl: entry.ttl ?? profile.ttl))
            }
        }
        do throws(EnvironmentChaosError) {
            return try EnvironmentChaos(entries: entries, source: variable)
        } catch {
            throw FileErrors(.error(at: .wholeFile(path), error.description))
        }
    }
}
