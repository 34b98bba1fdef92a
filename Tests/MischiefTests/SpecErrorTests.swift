import Mischief
import Testing

/// Invalid specs: each error's exact column and message.
struct SpecErrorTests {
    /// Each invalid spec with the expected column and message.
    static let invalid: [(String, Int, String)] = [
        ("", 1, "empty spec; expected an action such as 'off'"),
        ("   ", 1, "empty spec; expected an action such as 'off'"),
        ("a +", 3, "unexpected '+' at the end of the spec; expected an action"),
        ("a ->", 3, "unexpected '->' at the end of the spec; expected an action"),
        ("+ a", 1, "expected an action, found '+'"),
        ("-> a", 1, "expected an action, found '->'"),
        ("a + + b", 5, "expected an action after '+', found '+'"),
        ("a b", 3, "unexpected 'b'; expected '+', '->' or the end of the spec"),
        ("a(b))", 5, "unexpected ')'; expected '+', '->' or the end of the spec"),
        ("\"off\"", 1, "expected an action, found string \"off\""),
        ("120%off", 1, "probability must be between 0 and 100, got 120"),
        ("100.5%off", 1, "probability must be between 0 and 100, got 100.5"),
        ("-5%off", 1, "probability must be between 0 and 100, got -5"),
        ("nan%off", 1, "probability must be a number between 0 and 100, got 'nan'"),
        ("0*off", 1, "count must be a positive whole number, got 0"),
        ("1.5*off", 1, "count must be a positive whole number, got 1.5"),
        ("-2*off", 1, "count must be a positive whole number, got -2"),
        ("x*off", 1, "count must be a positive whole number, got 'x'"),
        ("50%%x", 4, "expected an action after '50%', found '%'"),
        ("50%", 4, "expected an action after '50%', found the end of the spec"),
        ("50% 3*", 7, "expected an action after '50% 3*', found the end of the spec"),
        ("3*50%off", 3, "the probability must come before the count, as in '50%3*'"),
        ("50%50%off", 4, "a term has at most one probability; found a second one, '50%'"),
        ("5 off", 1, "expected '%' or '*' after '5'; a term looks like '50%3*off'"),
        ("@key off", 1, "'@key' needs a probability before it, as in '10%@key offline'"),
        ("3*@key off", 3, "'@key' goes right after the probability, as in '10%@key 3*offline'"),
        ("10% 3*@key off", 7, "'@key' goes right after the probability, as in '10%@key 3*offline'"),
        ("10%@user off", 5, "expected 'key' after '@', as in '10%@key offline', found 'user'"),
        ("10%@", 4, "expected 'key' after '@', as in '10%@key offline', found the end of the spec"),
        ("10%@(x)", 5, "expected 'key' after '@', as in '10%@key offline', found '('"),
        ("10%@keyoff", 5, "expected a space after '@key', as in '10%@key offline', found 'keyoff'"),
        ("10%@key@key off", 8, "a probability has one scope; found a second '@'"),
        ("10%@key", 8, "expected an action after '10%@key', found the end of the spec"),
        ("a(@key)", 3, "expected an argument, found '@'"),
        ("250ms", 1, "expected an action, found '250ms'"),
        ("shift(1d", 9, "expected ')' to close the arguments of 'shift'"),
        ("shift(", 7, "expected ')' to close the arguments of 'shift'"),
        ("shift(1d b)", 10, "expected ',' or ')' after an argument, found 'b'"),
        ("a(b: 1 c)", 8, "expected ',' or ')' after an argument, found 'c'"),
        ("shift(1d,)", 9, "trailing ',' before ')'"),
        ("shift(,1d)", 7, "expected an argument, found ','"),
        ("shift(by:)", 10, "expected a value for 'by', found ')'"),
        ("random(seed: 1, seed: 2)", 17, "duplicate argument 'seed'"),
        ("shift(5x)", 7, "invalid duration unit 'x' in '5x'; use ns, us, ms, s, m, h, d, w or y"),
        ("shift(-5min)", 7, "invalid duration unit 'min' in '-5min'; use ns, us, ms, s, m, h, d, w or y"),
        ("shift(1000y)", 7, "duration '1000y' is too large; the limit is about 292 years"),
        ("shift(0.5ns)", 7, "duration '0.5ns' is not a whole number of nanoseconds"),
        ("shift(1e3s)", 7, "invalid duration '1e3s': write the amount without an exponent"),
        ("value(5.)", 7, "invalid number '5.': expected a digit after '.'"),
        ("echo(\"abc", 6, "unterminated string starting at column 6"),
        (
            "say(\"a\\qb\")", 7,
            "invalid escape '\\q' in string; use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"
        ),
        ("say(\"\\u00g1\")", 6, "invalid unicode escape '\\u00g1'; expected four hex digits after \\u"),
        ("say(\"\\ud83d\")", 6, "unpaired surrogate in escape '\\uD83D'"),
        ("2×shift", 2, "unexpected character '×'; specs are ASCII outside quoted strings"),
        ("shift(1d) #", 11, "unexpected character '#'"),
        ("freeze(2038-13-01)", 8, "invalid date '2038-13-01': month must be 1–12"),
        ("freeze(2038-02-30)", 8, "invalid date '2038-02-30': day must be 1–28"),
        ("freeze(2038-01-19T25:00:00Z)", 8, "invalid date '2038-01-19T25:00:00Z': hour must be 0–23"),
        ("freeze(2038-1-19)", 8, "invalid date '2038-1-19': expected the form YYYY-MM-DD"),
        (
            "freeze(2038-01-19T03:14:08+2:00)", 8,
            "invalid date '2038-01-19T03:14:08+2:00': expected an offset like +02:00"
        ),
        (
            "freeze(2038-01-19T03:14:08.1234567891Z)", 8,
            "invalid date '2038-01-19T03:14:08.1234567891Z': fractional seconds may have at most 9 digits"
        ),
        ("return({name: 1})", 9, "expected a quoted key in the object, found 'name'"),
        ("return({\"a\" 1})", 13, "expected ':' after the key \"a\", found '1'"),
        ("return({\"a\": 1,})", 15, "trailing ',' before '}'"),
        ("return({\"a\": })", 14, "expected a value for the key \"a\", found '}'"),
        ("return({\"a\": 1, \"a\": 2})", 17, "duplicate key \"a\" in the object"),
        ("return([1, 2)", 13, "expected ',' or ']' in the array, found ')'"),
        ("return([1, 2", 13, "expected ']' to close the array starting at column 8"),
        ("return([1,])", 10, "trailing ',' before ']'"),
        ("seq(off, 3*)", 12, "expected an action after '3*', found ')'"),
        ("seq(a +)", 8, "expected an action after '+', found ')'"),
        ("seq(-x)", 5, "expected an argument, found '-'"),
    ]

    @Test(arguments: invalid)
    func reportsColumnAndMessage(_ text: String, _ column: Int, _ message: String) {
        do {
            let spec = try Spec(parsing: text)
            Issue.record("expected an error, parsed \(spec)")
        } catch {
            #expect(error.message == message)
            #expect(error.column == column)
            #expect(error.text == text)
        }
    }

    @Test func descriptionShowsCaret() {
        let error = SpecError(text: "50%%x", column: 4, message: "expected an action after '50%', found '%'")
        #expect(error.description == "expected an action after '50%', found '%'\n  50%%x\n     ^")
    }

    @Test func columnsCountScalarsAndTheCaretSkipsMarks() {
        // s a y ( " e ◌́ " ) ␠ #: the '#' is the 11th scalar (the 10th character); the mark takes no room.
        let text = "say(\"e\u{301}\") #"
        do {
            _ = try Spec(parsing: text)
            Issue.record("expected an error")
        } catch {
            #expect(error.column == 11)
            #expect(error.message == "unexpected character '#'")
            #expect(error.description.hasSuffix("\n  " + String(repeating: " ", count: 9) + "^"))
        }
    }

    @Test func aMarkOutsideAStringIsNamedByItsCodePoint() {
        do {
            _ = try Spec(parsing: "off\u{301}")
            Issue.record("expected an error")
        } catch {
            #expect(error.column == 4)
            #expect(error.message == "unexpected character U+0301; specs are ASCII outside quoted strings")
        }
    }

    @Test func thrownDescription() throws {
        do {
            _ = try Spec(parsing: "120%off")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "probability must be between 0 and 100, got 120\n  120%off\n  ^")
        }
    }
}
