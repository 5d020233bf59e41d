import Testing

@Suite struct AppTestsPlaceholder {
    @Test func moduleBuilds() { #expect(Bool(true)) }
}
