import Foundation
import MischiefFiles
import Testing

/// A colour with string raw values, used to check enum errors.
private enum Shade: String, Codable, CaseIterable, Equatable {
    case red, green, blue
}

/// A layer, nested inside a theme.
private struct Layer: Codable, Equatable {
    var name: String
    var depth: Int?
}

/// A palette nested inside a theme.
private struct Palette: Codable, Equatable {
    var background: String
    var accent: String?
}

/// A theme exercising nested structs, arrays and optionals.
private struct Theme: Codable, Equatable {
    var name: String
    var size: Int
    var ratio: Double
    var enabled: Bool
    var palette: Palette
    var tags: [String]
    var layers: [Layer]
    var shade: Shade?
    var level: UInt8?
    var color: String?
}

/// A percentage whose own `init(from:)` rejects values over 100.
private struct Percent: Decodable, Equatable {
    var value: Int

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = try container.decode(Int.self)
        guard (0...100).contains(value) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(value)% is more than 100%")
        }
    }
}

/// A type whose keyed `init(from:)` rejects a value with `dataCorruptedError(forKey:)`.
private struct Window: Decodable {
    var width: Int

    enum CodingKeys: String, CodingKey { case width }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.decode(Int.self, forKey: .width)
        if width < 10 {
            throw DecodingError.dataCorruptedError(
                forKey: .width, in: container,
                debugDescription: "a window must be at least 10 wide")
        }
    }
}

/// A type that reads through nested containers and a super decoder.
private struct Manual: Decodable, Equatable {
    var first: Int
    var pair: [String]
    var inner: String
    var parent: Int

    init(first: Int, pair: [String], inner: String, parent: Int) {
        self.first = first
        self.pair = pair
        self.inner = inner
        self.parent = parent
    }

    enum Keys: String, CodingKey { case box, list, base }
    enum BoxKeys: String, CodingKey { case first, inner }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let box = try container.nestedContainer(keyedBy: BoxKeys.self, forKey: .box)
        first = try box.decode(Int.self, forKey: .first)
        inner = try box.decode(String.self, forKey: .inner)
        var list = try container.nestedUnkeyedContainer(forKey: .list)
        pair = []
        while !list.isAtEnd { pair.append(try list.decode(String.self)) }
        parent = try container.superDecoder(forKey: .base).singleValueContainer().decode(Int.self)
    }
}

/// The first diagnostic decoding `text` as `type` produces, as text, or nil when decoding succeeds.
private func failure<T: Decodable>(_ type: T.Type, _ text: String, file: String = "t.yaml") -> String? {
    do {
        _ = try YAMLFile.decode(type, from: text, file: file)
        return nil
    } catch {
        return error.diagnostics.first?.description
    }
}

@Suite struct YAMLFileTests {
    @Test func decodesNestedStructsArraysAndOptionals() throws {
        let text = """
            name: Dark
            size: 12
            ratio: 0.5
            enabled: true
            palette:
              background: black
              accent: ~
            tags: [a, b, "c", 12]
            layers:
              - name: one
                depth: 1
              - name: two
                depth:
            shade: green
            level: 255
            """
        let decoded = try YAMLFile.decode(Theme.self, from: text, file: "themes/dark.yaml")
        #expect(decoded.warnings.isEmpty)
        #expect(
            decoded.value
                == Theme(
                    name: "Dark", size: 12, ratio: 0.5, enabled: true,
                    palette: Palette(background: "black", accent: nil), tags: ["a", "b", "c", "12"],
                    layers: [Layer(name: "one", depth: 1), Layer(name: "two", depth: nil)],
                    shade: .green, level: 255, color: nil))
    }

    @Test func invalidEnumNamesTheValidCases() {
        let text =
            "name: x\nsize: 1\nratio: 1\nenabled: false\npalette: {background: b}\ntags: []\nlayers: []\n"
            + "shade: blu\n"
        #expect(
            failure(Theme.self, text) == "t.yaml:8:8: error: invalid value \"blu\" for 'shade'; "
                + "expected one of: red, green, blue (did you mean 'blue'?)")
    }

    @Test func integersOutOfRange() {
        #expect(
            failure([String: UInt8].self, "key: 300")
                == "t.yaml:1:6: error: value 300 is out of range for 'key' (expected 0 to 255)")
        #expect(
            failure([String: UInt].self, "a: -1")
                == "t.yaml:1:4: error: value -1 is out of range for 'a' (expected 0 to \(UInt.max))")
        #expect(
            failure([String: Int64].self, "a: 99999999999999999999")
                == "t.yaml:1:4: error: value 99999999999999999999 is out of range for 'a' "
                + "(expected \(Int64.min) to \(Int64.max))")
        #expect(
            failure([Int8].self, "[1, -129]")
                == "t.yaml:1:5: error: value -129 is out of range for item 2 (expected -128 to 127)")
    }

    @Test func integerForms() throws {
        let decoded = try YAMLFile.decode(
            [String: Int].self, from: "a: 0x1F\nb: -12\nc: +3\nd: 0o17\ne: 4.0",
            file: "t.yaml")
        #expect(decoded.value == ["a": 31, "b": -12, "c": 3, "d": 15, "e": 4])
        #expect(try YAMLFile.decode(Int8.self, from: "-128", file: "t").value == -128)
        #expect(try YAMLFile.decode(Int64.self, from: "-9223372036854775808", file: "t").value == .min)
        #expect(failure(Int.self, "1.5") == "t.yaml:1:1: error: expected a whole number at the top level, found 1.5")
    }

    @Test func floatingPoint() throws {
        let decoded = try YAMLFile.decode([Double].self, from: "[1, -2.5, 1e3, .inf, -.inf]", file: "t")
        #expect(decoded.value == [1, -2.5, 1000, .infinity, -.infinity])
        #expect(try YAMLFile.decode(Float.self, from: "0.25", file: "t").value == 0.25)
        #expect(failure([Double].self, "[1, nan]") == "t.yaml:1:5: error: expected a number for item 2, found \"nan\"")
    }

    @Test func wrongTypeAtDepthHasExactLocation() {
        let text = """
            outer:
              layers:
                - name: a
                - name: b
                  depth: deep
            """
        #expect(
            failure([String: [String: [Layer]]].self, text)
                == "t.yaml:5:14: error: expected a number for 'depth', found \"deep\"")
    }

    @Test func wrongKindOfNode() {
        #expect(
            failure([String: [String: Int]].self, "entries: [1, 2]")
                == "t.yaml:1:10: error: expected a mapping for 'entries', found a list")
        #expect(
            failure([String: [Int]].self, "entries:\n  a: 1")
                == "t.yaml:2:3: error: expected a list for 'entries', found a mapping")
        #expect(failure(Layer.self, "- a") == "t.yaml:1:1: error: expected a mapping at the top level, found a list")
        #expect(failure(Layer.self, "name:\n") == "t.yaml:1:6: error: expected text for 'name', found nothing")
        #expect(failure(Layer.self, "name: null") == "t.yaml:1:7: error: expected text for 'name', found null")
    }

    @Test func booleansAreTrueOrFalseOnly() throws {
        #expect(
            try YAMLFile.decode([Bool].self, from: "[true, false, True, FALSE]", file: "t").value
                == [true, false, true, false])
        #expect(
            failure([String: Bool].self, "on: yes")
                == "t.yaml:1:5: error: expected true or false for 'on', found \"yes\"")
    }

    @Test func quotedNumbersAreText() throws {
        #expect(
            try YAMLFile.decode([String: String].self, from: "a: \"123\"\nb: 123\nc: true", file: "t").value
                == ["a": "123", "b": "123", "c": "true"])
        #expect(
            failure([String: Int].self, "seed: \"123\"")
                == "t.yaml:1:7: error: expected a number for 'seed', found \"123\" (quoted, so it is text; remove the quotes)"
        )
        #expect(
            failure([String: UInt64].self, "seed: abc")
                == "t.yaml:1:7: error: expected a number for 'seed', found \"abc\"")
    }

    @Test func syntaxErrorHasExactLocation() throws {
        let text = "name: a\nsize: [1, 2\nother: 3\n"
        let message = try #require(failure(Theme.self, text, file: "themes/x.yaml"))
        #expect(message.hasPrefix("themes/x.yaml:3:6: error: syntax error: "))
        let nested = "name: a\n  bad: b\n"
        #expect(failure(Theme.self, nested)?.hasPrefix("t.yaml:2:6: error: syntax error: mapping values") == true)
    }

    @Test func tabsAreExplained() throws {
        let message = try #require(failure([String: [String: Int]].self, "a:\n\tb: 1\n"))
        #expect(message.hasPrefix("t.yaml:2:1: error: syntax error"))
        #expect(message.contains("tabs"))
    }

    @Test func duplicateKeys() {
        #expect(
            failure(Layer.self, "name: a\ndepth: 1\nname: b\n")
                == "t.yaml:3:1: error: duplicate key 'name' (first at line 1); each key may appear only once in a mapping"
        )
        #expect(
            failure([Layer].self, "- name: a\n  depth: 1\n  # note\n  depth: 2\n")
                == "t.yaml:4:3: error: duplicate key 'depth' (first at line 2); each key may appear only once in a mapping"
        )
        #expect(
            failure(Layer.self, "{name: a, name: b}")
                == "t.yaml:1:11: error: duplicate key 'name' (first at line 1); each key may appear only once in a mapping"
        )
    }

    @Test func unknownKeysAreWarningsWithSuggestions() throws {
        let text =
            "name: x\nsize: 1\nratio: 1\nenabled: false\npalette:\n  background: b\n  backgroud: c\n"
            + "tags: []\nlayers: []\ncolour: red\nzzz: 1\n"
        let decoded = try YAMLFile.decode(Theme.self, from: text, file: "t.yaml")
        #expect(
            decoded.warnings.map(\.description) == [
                "t.yaml:7:3: warning: unknown key 'backgroud'; did you mean 'background'?",
                "t.yaml:10:1: warning: unknown key 'colour'; did you mean 'color'?",
                "t.yaml:11:1: warning: unknown key 'zzz'; expected one of: 'name', 'size', 'ratio', 'enabled', "
                    + "'palette', 'tags', 'layers', 'shade', 'level', 'color'",
            ])
        #expect(decoded.warnings.allSatisfy { $0.severity == .warning })
    }

    @Test func dictionariesHaveNoUnknownKeys() throws {
        let decoded = try YAMLFile.decode([String: [String: Int]].self, from: "a:\n  x: 1\n  y: 2\n", file: "t")
        #expect(decoded.value == ["a": ["x": 1, "y": 2]])
        #expect(decoded.warnings.isEmpty)
    }

    @Test func missingKeyIsLocatedAtTheMapping() {
        #expect(failure(Layer.self, "depth: 1\n") == "t.yaml:1:1: error: missing key 'name'")
        #expect(
            failure([Layer].self, "- name: a\n- depth: 2\n  nmae: b\n")
                == "t.yaml:2:3: error: missing key 'name' in item 2 (found 'nmae'; a typo?)")
    }

    @Test func customDataCorruptedErrorIsLocated() {
        #expect(failure([String: Percent].self, "cpu: 50\ndisk: 150\n") == "t.yaml:2:7: error: 150% is more than 100%")
        #expect(
            failure([String: Window].self, "main:\n  width: 5\n")
                == "t.yaml:2:10: error: a window must be at least 10 wide")
    }

    @Test func otherErrorsFromInitAreLocated() {
        struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
        struct Exploding: Decodable {
            init(from decoder: any Decoder) throws { throw Boom() }
        }
        #expect(failure([String: Exploding].self, "a: 1\nb: 2") == "t.yaml:1:4: error: boom")
    }

    @Test func nestedContainersAndSuperDecoder() throws {
        let text = "box:\n  first: 1\n  inner: x\nlist: [a, b]\nbase: 7\n"
        let decoded = try YAMLFile.decode(Manual.self, from: text, file: "t")
        #expect(decoded.value == Manual(first: 1, pair: ["a", "b"], inner: "x", parent: 7))
        #expect(decoded.warnings.isEmpty)
        #expect(
            failure(Manual.self, "box:\n  first: 1\nlist: []\nbase: 1")
                == "t.yaml:2:3: error: missing key 'inner' in 'box'")
    }

    @Test func emptyFile() {
        #expect(failure(Layer.self, "") == "t.yaml:1:1: error: the file is empty; expected YAML content")
        #expect(
            failure(Layer.self, "# only a comment\n\n") == "t.yaml:1:1: error: the file is empty; expected YAML content"
        )
    }

    @Test func severalDocumentsAreAnError() throws {
        let message = try #require(failure(Layer.self, "name: a\n---\nname: b\n"))
        #expect(message.hasPrefix("t.yaml:2:1: error: syntax error: but found another document"))
    }

    @Test func filesThatCannotBeRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let missing = directory.appendingPathComponent("missing.yaml")
        #expect(throws: FileErrors.self) { try YAMLFile.decode(Layer.self, contentsOf: missing) }
        do {
            _ = try YAMLFile.decode(Layer.self, contentsOf: missing)
        } catch {
            #expect(error.description == "\(missing.path): error: cannot read the file: no such file")
        }

        let latin1 = directory.appendingPathComponent("latin1.yaml")
        try Data("name: ok\ndepth: 1\nname2: caf".utf8 + [0xE9, 0x0A]).write(to: latin1)
        do {
            _ = try YAMLFile.decode(Layer.self, contentsOf: latin1)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "\(latin1.path):3:11: error: the file is not UTF-8 text; save it as UTF-8")
        }

        let good = directory.appendingPathComponent("good.yaml")
        try Data("name: fine\n".utf8).write(to: good)
        #expect(try YAMLFile.decode(Layer.self, contentsOf: good).value == Layer(name: "fine"))
    }

    @Test func encodeRoundTrips() throws {
        let layer = Layer(name: "a: b", depth: 3)
        let text = try YAMLFile.encode(layer)
        #expect(try YAMLFile.decode(Layer.self, from: text, file: "t").value == layer)
    }

    @Test func orderedMappingKeepsFileOrderAndLocations() throws {
        let text = "z: 1\na: 2\nm: 3\n"
        let decoded = try YAMLFile.decode(OrderedMapping<Located<Int>>.self, from: text, file: "o.yaml")
        #expect(decoded.value.elements.map(\.key) == ["z", "a", "m"])
        #expect(decoded.value.elements.map(\.value.value) == [1, 2, 3])
        #expect(decoded.value.elements[1].keyLocation == FileLocation(file: "o.yaml", line: 2, column: 1))
        #expect(decoded.value.elements[1].value.location == FileLocation(file: "o.yaml", line: 2, column: 4))
    }

    @Test func diagnosticDescriptions() {
        let location = FileLocation(file: "themes/x.yaml", line: 3, column: 7)
        #expect(location.description == "themes/x.yaml:3:7")
        let error = FileDiagnostic.error(at: location, "expected a number for 'seed', found \"abc\"")
        #expect(error.description == "themes/x.yaml:3:7: error: expected a number for 'seed', found \"abc\"")
        let warning = FileDiagnostic.warning(at: .wholeFile("a.yaml"), "odd")
        #expect(FileErrors([error, warning]).description == error.description + "\na.yaml: warning: odd")
    }

    @Test func typosGetSuggestionsButUnrelatedWordsDoNot() throws {
        let text = "nmae: a\nbase: 1\n"
        #expect(failure(Layer.self, text) == "t.yaml:1:1: error: missing key 'name' (found 'nmae'; a typo?)")
        let decoded = try YAMLFile.decode(Layer.self, from: "name: a\ndepht: 1\nbase: 2\n", file: "t.yaml")
        #expect(
            decoded.warnings.map(\.description) == [
                "t.yaml:2:1: warning: unknown key 'depht'; did you mean 'depth'?",
                "t.yaml:3:1: warning: unknown key 'base'; expected one of: 'name', 'depth'",
            ])
    }
}
