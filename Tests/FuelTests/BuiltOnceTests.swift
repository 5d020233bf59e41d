import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Fuel

@Suite struct BuiltOnceTests {
    @Test func theValueIsBuiltOnTheFirstAskingOnly() {
        let cell = BuiltOnce<[Int]>()
        let builds = Mutex(0)
        #expect(!cell.isBuilt)
        let first = cell.value {
            builds.withLock { $0 += 1 }
            return [1, 2, 3]
        }
        let second = cell.value {
            builds.withLock { $0 += 1 }
            return [9]
        }
        #expect(first == [1, 2, 3])
        #expect(second == [1, 2, 3])
        #expect(cell.isBuilt)
        #expect(builds.withLock { $0 } == 1)
    }

    @Test func racingAskersAllGetTheOneValueKept() {
        for _ in 0..<50 {
            let cell = BuiltOnce<Int>()
            let answers = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { asker in
                let answer = cell.value { asker }
                answers.withLock { $0.append(answer) }
            }
            let seen = answers.withLock { $0 }
            #expect(seen.count == 8)
            #expect(Set(seen).count == 1)
        }
    }
}
