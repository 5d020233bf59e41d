import Testing
@testable import Fuel

@Suite struct SelectFirstTests {
    @Test func theFirstKMatchAFullSortForAnyK() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 0...300, using: &generator)).map { _ in Int.random(in: 0...50, using: &generator) }
            let k = Int.random(in: 0...values.count, using: &generator)
            var selected = values
            selected.selectFirst(k, by: <)
            #expect(Array(selected.prefix(k)) == Array(values.sorted().prefix(k)))
            #expect(selected.sorted() == values.sorted())
        }
    }
}
