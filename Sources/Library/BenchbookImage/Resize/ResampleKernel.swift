/// Fixed-point weights for resampling one axis: for each output position, the first
/// source index and its integer weights (22 fractional bits), normalised to sum to 1.
struct ResampleKernel {
    /// Fractional bits of the weights: 32 bits minus 8 for the sample and 2 for headroom.
    static let precisionBits = 22

    /// First source index used by each output position.
    var starts: [Int]
    /// Number of source samples used by each output position.
    var counts: [Int]
    /// `stride` weights per output position; only the first `counts[i]` are used.
    var weights: [Int32]
    /// Row length in `weights`.
    var stride: Int

    /// Computes the kernel that maps `inputSize` samples (the part `start..<end`) to `outputSize`.
    init(inputSize: Int, outputSize: Int, start: Double, end: Double, filter: ResizeFilter) {
        let scale = (end - start) / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        stride = Int(support.rounded(.up)) * 2 + 1
        starts = [Int](repeating: 0, count: outputSize)
        counts = [Int](repeating: 0, count: outputSize)
        weights = [Int32](repeating: 0, count: outputSize * stride)
        var real = [Double](repeating: 0, count: stride)
        let inverse = 1 / filterScale
        let one = Double(1 << Self.precisionBits)
        for position in 0..<outputSize {
            let center = start + (Double(position) + 0.5) * scale
            // Truncation toward zero, then clamping, as C's (int) cast would.
            let first = max(Int(center - support + 0.5), 0)
            let last = min(Int(center + support + 0.5), inputSize)
            let count = max(last - first, 0)
            var total = 0.0
            for i in 0..<count {
                let w = filter.weight((Double(i + first) - center + 0.5) * inverse)
                real[i] = w
                total += w
            }
            starts[position] = first
            counts[position] = count
            for i in 0..<count {
                let w = total != 0 ? real[i] / total : 0
                let fixed = w < 0 ? (-0.5 + w * one).rounded(.towardZero) : (0.5 + w * one).rounded(.towardZero)
                weights[position * stride + i] = Int32(fixed)
            }
        }
    }
}
