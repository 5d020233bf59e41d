import Testing
import Fuel

struct PriceBelowRuleTests {
    let threshold = PriceTenths(tenths: 1799)

    @Test func anArmedAlertFiresAtTheThresholdExactlyAndNotAboveIt() {
        #expect(PriceBelowRule.evaluate(price: PriceTenths(tenths: 1799), threshold: threshold, armed: true) == .init(fires: true, armed: false))
        #expect(PriceBelowRule.evaluate(price: PriceTenths(tenths: 1800), threshold: threshold, armed: true) == .init(fires: false, armed: true))
    }

    @Test func afterFiringItStaysQuietBelowTheThresholdAndUntilOneCentAbove() {
        #expect(PriceBelowRule.evaluate(price: PriceTenths(tenths: 1700), threshold: threshold, armed: false) == .init(fires: false, armed: false))
        #expect(PriceBelowRule.evaluate(price: PriceTenths(tenths: 1808), threshold: threshold, armed: false) == .init(fires: false, armed: false))
        #expect(PriceBelowRule.evaluate(price: PriceTenths(tenths: 1809), threshold: threshold, armed: false) == .init(fires: false, armed: true))
    }

    @Test func aPriceWobblingAroundTheThresholdFiresOnceUntilReArmed() {
        var armed = true
        var fired = 0
        for tenths in [1805, 1799, 1801, 1798, 1805, 1799, 1809, 1799] {
            let outcome = PriceBelowRule.evaluate(price: PriceTenths(tenths: tenths), threshold: threshold, armed: armed)
            armed = outcome.armed
            if outcome.fires { fired += 1 }
        }
        #expect(fired == 2, "once at the first 179.9, once after 180.9 re-armed it")
    }
}

struct PriceMoveRuleTests {
    let change = PriceTenths(tenths: 50)

    @Test func theFirstSightingOnlySetsTheReference() {
        #expect(PriceMoveRule.evaluate(price: PriceTenths(tenths: 1900), reference: nil, change: change, direction: .drop)
            == .init(fires: false, reference: PriceTenths(tenths: 1900)))
    }

    @Test func aDropFiresAtExactlyTheChangeAndNotATenthShort() {
        let reference = PriceTenths(tenths: 1900)
        #expect(PriceMoveRule.evaluate(price: PriceTenths(tenths: 1850), reference: reference, change: change, direction: .drop)
            == .init(fires: true, reference: PriceTenths(tenths: 1850)))
        #expect(PriceMoveRule.evaluate(price: PriceTenths(tenths: 1851), reference: reference, change: change, direction: .drop)
            == .init(fires: false, reference: reference))
        #expect(PriceMoveRule.evaluate(price: PriceTenths(tenths: 1950), reference: reference, change: change, direction: .drop).fires == false)
    }

    @Test func smallStepsAddUpFromTheLastNotifiedPriceNotFromTheLastSeen() {
        var reference: PriceTenths? = PriceTenths(tenths: 1900)
        var fired: [Int] = []
        for tenths in [1890, 1880, 1870, 1860, 1850, 1840, 1800] {
            let outcome = PriceMoveRule.evaluate(price: PriceTenths(tenths: tenths), reference: reference, change: change, direction: .drop)
            reference = outcome.reference
            if outcome.fires { fired.append(tenths) }
        }
        #expect(fired == [1850, 1800])
    }

    @Test func aRiseIsMeasuredUpwards() {
        let reference = PriceTenths(tenths: 1900)
        #expect(PriceMoveRule.evaluate(price: PriceTenths(tenths: 1950), reference: reference, change: change, direction: .rise).fires)
        #expect(!PriceMoveRule.evaluate(price: PriceTenths(tenths: 1949), reference: reference, change: change, direction: .rise).fires)
        #expect(!PriceMoveRule.evaluate(price: PriceTenths(tenths: 1800), reference: reference, change: change, direction: .rise).fires)
    }
}
