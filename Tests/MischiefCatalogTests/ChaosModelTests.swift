import Foundation
import Mischief
import Testing

@testable import MischiefCatalog

@Suite("ChaosModel")
struct ChaosModelTests {
    let registry = Registry(sessionSeed: 5)
    let users = ChaosModel<User>("user")
    let json: Data

    init() throws {
        try registry.register(users.decoding, users.values)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        json = try encoder.encode(User.sample)
    }

    @Test func decodingWithoutChaosIsTheModelsOwn() throws {
        #expect(try users.decode(json) == User.sample)
        #expect(users.value(User.sample) == User.sample)
        #expect(users.decoding.info.id == "model.user.decode" && users.values.info.id == "model.user")
    }

    @Test func theSameSeedGivesTheSameMutationsAndEachIsReported() throws {
        try registry.apply(spec: "randomize(fields: 50%, seed: 9)", to: "model.user.decode")
        let first = try users.decode(json)
        let second = try users.decode(json)
        registry.revertAll()
        try registry.apply(spec: "randomize(fields: 50%, seed: 9)", to: "model.user.decode")
        #expect(try users.decode(json) == first)
        #expect(try users.decode(json) == second)
        #expect(first != User.sample)
        let reports = registry.events().filter { $0.kind == .report && $0.seam == "model.user.decode" }
        #expect(reports.count == 4)
        #expect(reports[0].message.contains(" → "))
    }

    @Test func nullsEmptiesEveryOptionalField() throws {
        try registry.apply(spec: "nulls", to: "model.user")
        let user = users.value(User.sample)
        #expect(user.nickname == nil && user.address == nil)
        #expect(user.name == User.sample.name)
    }

    @Test func setChangesOneNestedFieldAndRefusesABadPath() throws {
        try registry.apply(spec: #"set(path: "address.city", value: "")"#, to: "model.user")
        #expect(users.value(User.sample).address?.city == "")
        registry.revertAll()
        #expect(throws: MischiefError.self) {
            try registry.apply(spec: #"set(path: "adress.city", value: "")"#, to: "model.user")
        }
    }

    @Test func extremesReachTheLimitsTheDecoderAccepts() throws {
        try registry.apply(spec: "extremes", to: "model.user.decode")
        let user = try users.decode(json)
        #expect(user.age == Int.max)
        #expect(user.level == UInt8.max)
        #expect(user.name.count >= ModelMutator.longStringLength)
    }

    @Test func aMutationTheDecoderRejectsIsDroppedAndReported() throws {
        try registry.apply(spec: #"set(path: "role", value: "superuser")"#, to: "model.user.decode")
        #expect(try users.decode(json).role == .admin)
        let report = registry.events().last { $0.kind == .report }
        #expect(report?.message.contains("role") == true)
    }
}
