import Testing

@testable import MischiefCatalog

struct MutationPathTests {
    @Test func parsesKeysIndicesAndWildcards() throws {
        #expect(try MutationPath("address.city").components == [.key("address"), .key("city")])
        #expect(try MutationPath("friends[2].name").components == [.key("friends"), .index(2), .key("name")])
        #expect(try MutationPath("tags[]").shapePath == "tags[]")
        #expect(try MutationPath("friends[2].name").shapePath == "friends[].name")
        #expect(try MutationPath("[0].name").components == [.index(0), .key("name")])
        #expect(try MutationPath("m[1][2]").description == "m[1][2]")
    }

    @Test func rejectsMalformedPaths() {
        for bad in ["", "a..b", ".a", "a.", "a[x]", "a[-1]", "a[1", "a]"] {
            #expect(throws: ModelMutator.MutationError.self, "\(bad)") { try MutationPath(bad) }
        }
    }

    @Test func expandsAgainstATree() throws {
        let tree = try JSONValue.parse(#"{"f":[{"n":"a"},{"n":"b"}],"o":{}}"#)
        #expect(try MutationPath("f[].n").expand(in: tree).count == 2)
        #expect(try MutationPath("f[1].n").expand(in: tree) == [[.key("f"), .index(1), .key("n")]])
        #expect(try MutationPath("f[5].n").expand(in: tree).isEmpty)
        #expect(try MutationPath("o.new").expand(in: tree) == [[.key("o"), .key("new")]])
        #expect(try MutationPath("x.new").expand(in: tree).isEmpty)
    }
}
