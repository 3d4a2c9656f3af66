import LumaImaging
import Testing

@Suite("The median: the middle value, or the mean of the middle two")
struct MedianTests {
    @Test("an odd count gives the middle value")
    func oddCount() {
        #expect(Median.ofSorted([1, 2, 10]) == 2)
        #expect(Median.of([10, 1, 2]) == 2)
    }

    @Test("an even count gives the mean of the two middle values")
    func evenCount() {
        #expect(Median.ofSorted([1, 2, 4, 100]) == 3)
        #expect(Median.of([100, 4, 1, 2]) == 3)
    }

    @Test("no values give 0")
    func empty() {
        #expect(Median.ofSorted([]) == 0)
        #expect(Median.of([]) == 0)
    }
}
