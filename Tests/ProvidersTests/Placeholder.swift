import Testing

@Suite struct ProvidersTestsPlaceholder {
    @Test func moduleBuilds() { #expect(Bool(true)) }
}
