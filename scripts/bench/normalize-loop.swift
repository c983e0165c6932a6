// The seed 000 app's normalisation loop (224 × 224 RGBA bytes → NCHW floats with ImageNet
// mean and std), as a notebook would hold it. `scripts/bench/normalize_bench.py` runs this
// file two ways and compares them: as one main.swift built by swiftc, and as notebook
// cells (split at the `//% cell` lines) in the Benchbook kernel. Both print the median time.
//% cell
import Glibc

let width = 224, height = 224, bytesPerRow = width * 4
let mean: [Float] = [0.485, 0.456, 0.406]
let std: [Float] = [0.229, 0.224, 0.225]
// A deterministic "photo": every byte of every RGBA pixel set.
let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: height * bytesPerRow)
for i in 0..<(height * bytesPerRow) { pixels[i] = UInt8(truncatingIfNeeded: i &* 31 &+ 7) }
let tensorData = UnsafeMutablePointer<Float>.allocate(capacity: 3 * height * width)
//% cell
// The loop as the seed app writes it (ImageClassifier.normalize(pixelBuffer:)).
func normalize(_ baseAddress: UnsafeMutablePointer<UInt8>, into tensorData: UnsafeMutablePointer<Float>) {
    for y in 0..<height {
        for x in 0..<width {
            let pixelOffset = y * bytesPerRow + x * 4
            let pixel = baseAddress.advanced(by: pixelOffset)

            // Extract RGB values
            let r = Float(pixel[0]) / 255.0
            let g = Float(pixel[1]) / 255.0
            let b = Float(pixel[2]) / 255.0

            // Normalize and store in CHW format
            let idx = y * width + x
            tensorData[idx] = (r - mean[0]) / std[0]
            tensorData[height * width + idx] = (g - mean[1]) / std[1]
            tensorData[2 * height * width + idx] = (b - mean[2]) / std[2]
        }
    }
}
//% cell
func seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
var times: [Double] = []
for _ in 0..<400 {
    let start = seconds()
    normalize(pixels, into: tensorData)
    times.append(seconds() - start)
}
times.sort()
let checksum = tensorData[12_345] + tensorData[100_000] + tensorData[150_000]
print("median_ms", times[times.count / 2] * 1000, "p10_ms", times[times.count / 10] * 1000, "checksum", checksum)
