import Foundation
import MischiefCatalog
import Testing

struct ModelShapeTests {
    private func expectUserShape(_ shape: ModelShape) {
        #expect(shape.typeName == "User")
        #expect(
            shape.fields.map(\.key) == [
                "id", "name", "age", "nickname", "joined", "role", "address", "tags", "friends", "homepage", "score",
                "verified", "level",
            ])
        #expect(shape.field(at: "id")?.kind == .uuid)
        #expect(shape.field(at: "name")?.kind == .string)
        #expect(shape.field(at: "name")?.isOptional == false)
        #expect(shape.field(at: "age")?.kind == .integer(bits: Int.bitWidth, signed: true))
        #expect(shape.field(at: "level")?.kind == .integer(bits: 8, signed: false))
        #expect(shape.field(at: "nickname")?.isOptional == true)
        #expect(shape.field(at: "joined")?.kind == .date)
        #expect(shape.field(at: "role")?.kind == .stringEnum(["admin", "member", "guest"]))
        #expect(shape.field(at: "address")?.isOptional == true)
        #expect(shape.field(at: "address.city")?.kind == .string)
        #expect(shape.field(at: "address.zip")?.kind == .integer(bits: 32, signed: true))
        #expect(shape.field(at: "address.zip")?.isOptional == true)
        #expect(shape.field(at: "tags[]")?.kind == .string)
        #expect(shape.field(at: "friends[].since")?.kind == .date)
        #expect(shape.field(at: "friends[].priority")?.kind == .intEnum([1, 2, 3]))
        #expect(shape.field(at: "friends[3].name")?.path == "friends[].name")
        #expect(shape.field(at: "homepage")?.kind == .url)
        #expect(shape.field(at: "score")?.kind == .double)
        #expect(shape.field(at: "verified")?.kind == .bool)
        #expect(shape.field(at: "nope") == nil)
    }

    @Test func learnsWithoutSample() throws {
        let shape = try ModelShape.learn(User.self)
        expectUserShape(shape)
        #expect(shape.paths.contains("friends[].name"))
        #expect(shape.paths.contains("tags[]"))
    }

    @Test func learnsFromSample() throws {
        let sample = try JSONEncoder().encode(User.sample)
        let shape = try ModelShape.learn(User.self, from: sample)
        expectUserShape(shape)
    }

    @Test func sampleWithMissingOptionalsAndEmptyArraysStillLearnsEverything() throws {
        var user = User.sample
        user.nickname = nil
        user.address = nil
        user.friends = []
        let shape = try ModelShape.learn(User.self, from: JSONEncoder().encode(user))
        expectUserShape(shape)
    }

    @Test func sameShapeWithAndWithoutSample() throws {
        let synthetic = try ModelShape.learn(User.self)
        let sampled = try ModelShape.learn(User.self, from: JSONEncoder().encode(User.sample))
        #expect(synthetic == sampled)
    }

    @Test func learnsTopLevelArraysAndLeaves() throws {
        let shape = try ModelShape.learn([Friend].self)
        #expect(shape.root.kind == .array(shape.root.children[0]))
        #expect(shape.field(at: "[].name")?.kind == .string)
        #expect(try ModelShape.learn(Date.self).root.kind == .date)
        #expect(try ModelShape.learn(Role?.self).root.isOptional)
    }

    @Test func recursiveTypesAreBounded() throws {
        let shape = try ModelShape.learn(TreeNode.self)
        #expect(shape.field(at: "children[].children[].label")?.kind == .string)
        #expect(shape.field(at: "parent.parent.label")?.kind == .string)
    }

    @Test func invalidSampleThrows() {
        #expect(throws: (any Error).self) { try ModelShape.learn(User.self, from: Data("{nope".utf8)) }
    }

    @Test func descriptionListsFields() throws {
        let text = try ModelShape.learn(User.self).description
        #expect(text.contains("nickname: String?"))
        #expect(text.contains("role: enum(admin|member|guest)"))
        #expect(text.contains("friends[].priority: enum(1|2|3)"))
    }
}

final class TreeNode: Codable, Sendable {
    let label: String
    let children: [TreeNode]
    let parent: TreeNode?
}
