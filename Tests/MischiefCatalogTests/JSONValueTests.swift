import Foundation
import Testing

@testable import MischiefCatalog

struct JSONValueTests {
    @Test func roundTripsKeepingOrderAndNumberText() throws {
        let text = #"{"b":1,"a":[true,false,null],"big":18446744073709551615,"d":1.7976931348623157e+308,"s":"x"}"#
        let value = try JSONValue.parse(text)
        #expect(value.text == text)
        #expect(value[key: "big"] == .number("18446744073709551615"))
    }

    @Test func parsesEscapesAndSurrogatePairs() throws {
        let value = try JSONValue.parse(#" [ "a\"b\\c\/d\n\t\u00e9\ud83d\ude00" ] "#)
        #expect(value == .array([.string("a\"b\\c/d\n\té😀")]))
        #expect(value.text == #"["a\"b\\c/d\n\té😀"]"#)
        #expect(try JSONValue.parse(JSONValue.string("\u{01}\u{202E}").text) == .string("\u{01}\u{202E}"))
    }

    @Test func rejectsMalformedJSON() {
        for bad in ["", "{", "[1,]", "{\"a\"}", "tru", "\"open", "1 2", "-", "{\"a\":1,}"] {
            #expect(throws: JSONValue.ParseError.self, "\(bad)") { try JSONValue.parse(bad) }
        }
    }

    @Test func keySubscriptSetsAddsAndRemoves() throws {
        var value = try JSONValue.parse(#"{"a":1,"b":2}"#)
        value[key: "a"] = .string("x")
        value[key: "c"] = .null
        value[key: "b"] = nil
        #expect(value.text == #"{"a":"x","c":null}"#)
    }

    @Test func agreesWithJSONDecoder() throws {
        let data = try JSONEncoder().encode(User.sample)
        let reencoded = try JSONValue.parse(data).data
        #expect(try JSONDecoder().decode(User.self, from: reencoded) == User.sample)
    }
}
