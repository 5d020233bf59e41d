import Testing
@testable import HTTP

@Suite("Log lines cannot be forged")
struct LoggerTests {
    @Test("A forged newline and an ANSI clear-screen in a request path stay escaped on the request's one line")
    func forgedPathIsEscaped() throws {
        let sink = LogSink.inMemory()
        let app = Application(environment: .testing, logger: Logger(label: "petty", level: .info, sink: sink))
        let forged = "/x%0a2026-11-24T23:00:00.000Z%20NOTICE%20%5Bpetty%5D%20shutdown%20requested%0a%1b%5B2J"
        #expect(try app.test(.GET, forged).status == .notFound)

        let lines = sink.lines
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasSuffix("\n"))
        #expect(!line.dropLast().contains("\n") && !line.contains("\u{1b}"))
        #expect(line.contains(#"/x\n2026-11-24T23:00:00.000Z NOTICE [petty] shutdown requested\n\x1b[2J 404"#), "\(line)")
    }

    @Test("Any message, such as a provider's error text, has its control characters escaped")
    func messageIsEscaped() throws {
        let sink = LogSink.inMemory()
        let logger = Logger(label: "petty", level: .info, sink: sink)
        logger.error("poll nsw failed: \u{1b}[2J\r\n2026-11-24 NOTICE forged\tline\u{07}\u{7f}")
        let line = try #require(sink.lines.first)
        #expect(sink.lines.count == 1)
        #expect(line.hasSuffix(#" ERROR [petty] poll nsw failed: \x1b[2J\r\n2026-11-24 NOTICE forged\tline\x07\x7f"# + "\n"), "\(line)")
    }

    @Test("C1 controls and the Unicode line and paragraph separators are escaped too, in the label as well")
    func unicodeBreaksAreEscaped() throws {
        let sink = LogSink.inMemory()
        Logger(label: "lead\u{2029}er", level: .info, sink: sink).info("a\u{85}b\u{9b}2Jc\u{2028}d\u{80}e\u{9f}")
        let line = try #require(sink.lines.first)
        #expect(line.hasSuffix(#"[lead\u{2029}er] a\u{85}b\u{9b}2Jc\u{2028}d\u{80}e\u{9f}"# + "\n"), "\(line)")
    }

    @Test("Ordinary UTF-8 text is written as is")
    func ordinaryTextIsKept() throws {
        let text = "Café ⛽ Ünïcode – “quotes” \\ back\\slash 😀 \u{a0}\u{2027}\u{202a}"
        #expect(LogEscaping.escaped(text) == text)
        let sink = LogSink.inMemory()
        Logger(label: "petty", level: .info, sink: sink).info(text)
        #expect(sink.lines.first?.hasSuffix("] " + text + "\n") == true)
    }
}
