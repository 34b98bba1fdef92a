import Testing

@testable import MischiefCatalog

/// Strings with tricky placeholders, markup and stray placeholder characters, shared by the suites.
enum Corpus {
    static let strings: [String] = [
        "Welcome back, %@! You have %d new messages.",
        "%1$@ sent %2$d photos",
        "100%% done",
        "Hello {name}, <b>%@</b>",
        "",
        "%",
        "50% off",
        "%.2f km",
        "%lld items",
        "<a href=\"x\">Tap</a> here",
        "100%",
        "Line one<br/>line two",
        "{ name }",
        "%5 d",
        "Save & exit, or &amp; stay",
        "Déjà vu: %@ au café",
        "%d%%",
        "{0} of {1} selected",
        "Tap < to go back and > to go forward",
        "Price: %-8.2f€ (%+d%%)",
        "<b>Bold</b><i>%@</i>",
        "%d\u{301} accents",
        "Multi\nline %@\ttab",
        "%1$*2$d wide",
        "&",
        "{",
        "<",
        "   ",
        "%@",
        "%@%@",
        "%lu of %zd, %x %c %e %g %p %s %i %u %f",
        "This is a much longer sentence that keeps going for a while, %@.",
        "& amp ;",
        "< b >bold< /b >",
    ]
}

@Suite struct FormatSegmentsTests {
    @Test(arguments: [
        "%@", "%d", "%i", "%u", "%f", "%.2f", "%ld", "%lld", "%s", "%1$@", "%2$d", "%%", "%x", "%c", "%e",
        "%g", "%p", "%lu", "%zd", "%-5s", "%05.1f", "%*d", "%.*f", "%hhd", "%'d", "%+d", "%#x", "%1$*2$d",
        "%3$.*1$f", "%qd", "%Lf", "%jd", "%td", "%X", "%E", "%G", "%a", "%C", "%S",
        "{name}", "{0}", "{user.name}", "{first_name}",
        "<b>", "</b>", "<a href=\"x\">", "<a href='a>b'>", "<br/>", "<br />",
        "&amp;", "&#39;", "&#x1F600;",
    ])
    func recognisesPlaceholder(_ placeholder: String) {
        #expect(FormatSegments.split(placeholder) == [.placeholder(placeholder)])
    }

    @Test(arguments: [
        "%", "100%", "%5 apples", "%y", "%l", "%ll", "%1$", "{}", "{a b}", "{-x}", "{", "}", "a < b", "<",
        "<1>", "<b", "&", "& amp;", "&amp", "&#;", "%d\u{301}", "plain text",
    ])
    func leavesTextAlone(_ text: String) {
        #expect(FormatSegments.split(text) == [.text(text)])
    }

    @Test func splitsMixedString() {
        #expect(
            FormatSegments.split("Hi %@, <b>%d</b> new") == [
                .text("Hi "), .placeholder("%@"), .text(", "), .placeholder("<b>"), .placeholder("%d"),
                .placeholder("</b>"), .text(" new"),
            ])
        #expect(FormatSegments.split("50% off") == [.text("50"), .placeholder("% o"), .text("ff")])
        #expect(FormatSegments.split("%d%%") == [.placeholder("%d"), .placeholder("%%")])
        #expect(FormatSegments.split("") == [])
    }

    @Test func listsPlaceholdersInOrder() {
        #expect(FormatSegments.placeholders(in: "%1$@ sent %2$d photos") == ["%1$@", "%2$d"])
        #expect(
            FormatSegments.placeholders(in: "<a href=\"x\">Tap</a> here, {name} &amp; %.2f%%")
                == ["<a href=\"x\">", "</a>", "{name}", "&amp;", "%.2f", "%%"])
    }

    @Test(arguments: Corpus.strings)
    func joinRoundTrips(_ text: String) {
        let segments = FormatSegments.split(text)
        #expect(FormatSegments.join(segments) == text)
        #expect(!segments.contains(.text("")))
        #expect(segments.map(\.string).allSatisfy { !$0.isEmpty })
    }
}
