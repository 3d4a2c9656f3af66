/// The median of a list of numbers: the middle one, or the mean of the two middle ones when the
/// count is even. One definition for the disc finder's edge sharpness, the ballistic fit's robust
/// scatter and a flight's radius and luma ratio, so they cannot disagree on an even count.
public enum Median {
    /// The median of `values`, which must be in ascending order; 0 when there are none.
    public static func ofSorted(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let middle = values.count / 2
        return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }

    /// The median of `values` in any order; 0 when there are none.
    public static func of(_ values: [Double]) -> Double {
        ofSorted(values.sorted())
    }
}
