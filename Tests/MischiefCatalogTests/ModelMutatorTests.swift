import Foundation
import Testing

@testable import MischiefCatalog

struct ModelMutatorTests {
    private let shape = try! ModelShape.learn(User.self)

    /// Checks that a JSON text fits the learned kind of the field at `path`.
    private func isTypeCorrect(_ json: String, path: String) throws -> Bool {
        let field = try #require(shape.field(at: path), "no field \(path)")
        let value = try JSONValue.parse(json)
        if value.isNull { return field.isOptional }
        switch (field.kind, value) {
        case (.string, .string), (.url, .string), (.uuid, .string), (.stringEnum, .string): return true
        case (.integer, .number(let text)), (.intEnum, .number(let text)):
            return Int64(text) != nil
                || UInt64(text) != nil
        case (.double, .number), (.float, .number), (.date, .number): return true
        case (.bool, .bool), (.array, .array): return true
        default: return false
        }
    }

    @Test func randomizeAllFieldsIsTypeCorrectAndReported() throws {
        let mutator = ModelMutator(.randomize(fields: 1))
        let (user, report) = mutator.mutate(User.sample, seed: 7, callIndex: 0)
        #expect(!report.applied.isEmpty)
        for mutation in report.applied {
            #expect(try isTypeCorrect(mutation.new, path: mutation.path), "\(mutation)")
            #expect(mutation.old != mutation.new)
        }
        #expect(report.applied.contains { $0.path == "name" })
        #expect(user != User.sample)
    }

    @Test func enumMutationIsRejectedAndModelStillDecodes() throws {
        let mutator = ModelMutator(.randomize(fields: 1))
        let (user, report) = mutator.mutate(User.sample, seed: 7, callIndex: 0)
        let rejection = try #require(report.rejected.first { $0.path == "role" })
        #expect(rejection.old == "\"admin\"")
        #expect(rejection.attempted == "\"\u{FFFD}unknown\"")
        #expect(rejection.reason.contains("cannot initialize Role from invalid String value"))
        let line = #"role: "admin" → "\u{FFFD}unknown" (rejected: cannot initialize Role"#
        #expect(rejection.description.hasPrefix(line))
        #expect(user.role == .admin)
        #expect(report.rejected.contains { $0.path == "friends[0].priority" })
        #expect(user.friends.allSatisfy { $0.priority == .high })
    }

    @Test func sameSeedSameMutations() {
        let mutator = ModelMutator(.randomize(fields: 0.3))
        let first = mutator.mutate(User.sample, seed: 42, callIndex: 3)
        let second = mutator.mutate(User.sample, seed: 42, callIndex: 3)
        #expect(first.1 == second.1)
        #expect(first.0 == second.0)
        #expect(!first.1.isEmpty)
    }

    /// Recorded once: the same seed must give the same mutations in every process and on every machine.
    @Test func seededMutationsAreRecorded() {
        let report = ModelMutator(.randomize(fields: 0.3)).mutate(User.sample, seed: 42, callIndex: 3).1
        #expect(
            report.applied.map(\.description) == [
                "age: 34 → -9223372036854775808",
                #"address: {"street":"1 Rua Augusta","city"… (53 chars) → null"#,
                #"tags: ["blue","green"] → ["blue","blue","blue","blue","bl… (351 chars)"#,
                "verified: true → false",
            ])
        #expect(report.rejected.map(\.path) == ["homepage"])
    }

    @Test func differentSeedsOrCallsDiffer() {
        let mutator = ModelMutator(.randomize(fields: 0.3))
        let base = mutator.mutate(User.sample, seed: 42, callIndex: 3).1
        let seeds = (43...48).map { mutator.mutate(User.sample, seed: $0, callIndex: 3).1 }
        let calls = (4...9).map { mutator.mutate(User.sample, seed: 42, callIndex: $0).1 }
        #expect(seeds.contains { $0 != base })
        #expect(calls.contains { $0 != base })
        let other = ModelMutator(.randomize(fields: 0.3, seed: 99)).mutate(User.sample, seed: 42, callIndex: 3).1
        #expect(other != base)
    }

    @Test func fractionControlsHowManyFields() {
        let none = ModelMutator(.randomize(fields: 0)).mutate(User.sample, seed: 1, callIndex: 0).1
        #expect(none.isEmpty)
        let few = ModelMutator(.randomize(fields: 0.2)).mutate(User.sample, seed: 1, callIndex: 0).1
        let all = ModelMutator(.randomize(fields: 1)).mutate(User.sample, seed: 1, callIndex: 0).1
        #expect(few.applied.count + few.rejected.count < all.applied.count + all.rejected.count)
    }

    @Test func nullsClearsEveryOptional() {
        let (user, report) = ModelMutator(.nulls).mutate(User.sample, seed: 0, callIndex: 0)
        #expect(user.nickname == nil)
        #expect(user.address == nil)
        #expect(report.applied.map(\.path) == ["nickname", "address"])
        #expect(report.applied[0].description == #"nickname: "annie" → null"#)
        #expect(report.rejected.isEmpty)
    }

    @Test func nullsReachesNestedOptionals() {
        let (user, _) = ModelMutator(.set(path: "address.zip", json: "null")).mutate(
            User.sample, seed: 0, callIndex: 0)
        #expect(user.address?.zip == nil)
        #expect(user.address?.city == "Lisbon")
    }

    @Test func extremesPushesNumbersStringsAndArrays() {
        let (user, report) = ModelMutator(.extremes).mutate(User.sample, seed: 0, callIndex: 0)
        #expect(user.age == Int.max)
        #expect(user.level == UInt8.max)
        #expect(user.address?.zip == Int32.max)
        #expect(user.score == .greatestFiniteMagnitude)
        #expect(user.name.count == ModelMutator.longStringLength)
        #expect(user.tags.count == ModelMutator.manyCount)
        #expect(user.tags.allSatisfy { $0.count == ModelMutator.longStringLength })
        #expect(user.friends.count == ModelMutator.manyCount)
        #expect(user.joined == .distantFuture)
        #expect(report.applied.contains { $0.description == "age: 34 → 9223372036854775807" })
        #expect(report.rejected.isEmpty)
    }

    @Test func setTopLevelAndNestedPaths() {
        let (user, report) = ModelMutator(.set(path: "address.city", json: #""""#)).mutate(
            User.sample, seed: 0, callIndex: 0)
        #expect(user.address?.city == "")
        #expect(report.applied.map(\.description) == [#"address.city: "Lisbon" → """#])

        let (aged, ageReport) = ModelMutator(.set(path: "age", json: "-1")).mutate(User.sample, seed: 0, callIndex: 0)
        #expect(aged.age == -1)
        #expect(ageReport.description == "age: 34 → -1")

        var two = User.sample
        two.friends.append(Friend(name: "Cy", since: .distantPast, priority: .low))
        let (renamed, _) = ModelMutator(.set(path: "friends[].name", json: #""x""#)).mutate(
            two, seed: 0, callIndex: 0)
        #expect(renamed.friends.map(\.name) == ["x", "x"])
        let (one, _) = ModelMutator(.set(path: "friends[1].name", json: #""y""#)).mutate(two, seed: 0, callIndex: 0)
        #expect(one.friends.map(\.name) == ["Bob", "y"])
    }

    @Test func setCreatesAbsentOptional() {
        var user = User.sample
        user.nickname = nil
        let (result, report) = ModelMutator(.set(path: "nickname", json: #""nick""#)).mutate(
            user, seed: 0, callIndex: 0)
        #expect(result.nickname == "nick")
        #expect(report.applied.count == 1)
    }

    @Test func setBadPathOrJSONIsAnError() {
        let badPath = ModelMutator(.set(path: "address.planet", json: "1"))
        #expect(throws: ModelMutator.MutationError.self) { try badPath.validate(for: User.self) }
        do {
            try badPath.validate(for: User.self)
        } catch {
            #expect(String(describing: error).contains("User has no field 'address.planet'"))
        }
        let (user, report) = badPath.mutate(User.sample, seed: 0, callIndex: 0)
        #expect(user == User.sample)
        #expect(report.applied.isEmpty)
        #expect(report.rejected.first?.reason.contains("no field 'address.planet'") == true)

        let badJSON = ModelMutator(.set(path: "name", json: "{oops"))
        #expect(throws: ModelMutator.MutationError.self) { try badJSON.validate(for: User.self) }
        #expect(throws: ModelMutator.MutationError.self) {
            try ModelMutator(.set(path: "a..b", json: "1")).validate(for: User.self)
        }
        #expect(throws: ModelMutator.MutationError.self) {
            try ModelMutator(.randomize(fields: 2)).validate(for: User.self)
        }
        let good = ModelMutator(.set(path: "friends[0].name", json: #""z""#))
        #expect(throws: Never.self) { try good.validate(for: User.self) }
    }

    @Test func setWrongTypeIsRejectedAndReported() {
        let (user, report) = ModelMutator(.set(path: "age", json: #""old""#)).mutate(
            User.sample, seed: 0, callIndex: 0)
        #expect(user.age == 34)
        #expect(report.applied.isEmpty)
        #expect(report.rejected.first?.description.hasPrefix(#"age: 34 → "old" (rejected: expected Int"#) == true)
    }

    @Test func decodingSeamMutatesBytes() throws {
        let data = try JSONEncoder().encode(User.sample)
        let mutator = ModelMutator(.set(path: "name", json: #""""#))
        let (user, report) = try mutator.mutate(data: data, as: User.self, seed: 1, callIndex: 0)
        #expect(user.name == "")
        #expect(report.description == #"name: "Ann" → """#)

        let random = ModelMutator(.randomize(fields: 0.5))
        let first = try random.mutate(data: data, as: User.self, seed: 5, callIndex: 2)
        let second = try random.mutate(data: data, as: User.self, seed: 5, callIndex: 2)
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)

        #expect(throws: ModelMutator.MutationError.self) {
            try mutator.mutate(data: Data("not json".utf8), as: User.self, seed: 0, callIndex: 0)
        }
        #expect(throws: DecodingError.self) {
            try mutator.mutate(data: Data("{}".utf8), as: User.self, seed: 0, callIndex: 0)
        }
    }

    @Test func honoursConfiguredDateStrategy() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let mutator = ModelMutator(.extremes, encoder: encoder, decoder: decoder)
        let (user, report) = mutator.mutate(User.sample, seed: 0, callIndex: 0)
        #expect(user.joined == .distantFuture)
        let joined = try #require(report.applied.first { $0.path == "joined" })
        #expect(joined.old == #""2020-09-13T12:26:40Z""#)
        #expect(joined.new.hasPrefix(#""4001-01-01"#))
    }

    @Test func longValuesAreAbbreviatedInReports() {
        let (_, report) = ModelMutator(.extremes).mutate(User.sample, seed: 0, callIndex: 0)
        let name = report.applied.first { $0.path == "name" }
        #expect(name?.new.count == ModelMutator.longStringLength + 2)
        #expect(name?.description.hasSuffix("… (1002 chars)") == true)
        #expect(report.applied.first?.path == "name")
        #expect(report.applied.allSatisfy { $0.description.count < 120 })
    }

    @Test func rightToLeftTextIsEscapedInReports() {
        let line = MutationReport.Mutation(path: "name", old: #""Ann""#, new: "\"\u{202E}abc\"").description
        #expect(line == #"name: "Ann" → "\u{202E}abc""#)
    }
}
