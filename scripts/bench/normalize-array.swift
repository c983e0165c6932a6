// Seed 000's normalisation (224 × 224 RGBA bytes → planar floats with ImageNet mean and
// std) as a notebook user writes it: a function over `[UInt8]` returning `[Float]` and a
// loop that times it, in one cell. `swiftc -O` vectorises its inner loop (it does not
// vectorise the seed app's pointer loop in normalize-loop.swift). `scripts/bench/normalize_bench.py`
// runs this file as one main.swift built by swiftc and as notebook cells (split at the
// `//% cell` lines); both print the median time of a call.
//% cell
import Glibc

// A deterministic "photo": every byte of every RGBA pixel set.
let photo: [UInt8] = (0..<(224 * 224 * 4)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
func seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
//% cell
func normalize(_ pixels: [UInt8], width: Int, height: Int) -> [Float] {
    let bytesPerRow = width * 4
    let mean: [Float] = [0.485, 0.456, 0.406]
    let std: [Float] = [0.229, 0.224, 0.225]
    return [Float](unsafeUninitializedCapacity: 3 * height * width) { tensor, count in
        pixels.withUnsafeBufferPointer { buffer in
            let baseAddress = buffer.baseAddress!, tensorData = tensor.baseAddress!
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = baseAddress.advanced(by: y * bytesPerRow + x * 4)
                    let r = Float(pixel[0]) / 255.0
                    let g = Float(pixel[1]) / 255.0
                    let b = Float(pixel[2]) / 255.0
                    let idx = y * width + x
                    tensorData[idx] = (r - mean[0]) / std[0]
                    tensorData[height * width + idx] = (g - mean[1]) / std[1]
                    tensorData[2 * height * width + idx] = (b - mean[2]) / std[2]
                }
            }
        }
        count = 3 * height * width
    }
}

var times: [Double] = []
var checksum: Float = 0
for _ in 0..<400 {
    let start = seconds()
    let tensor = normalize(photo, width: 224, height: 224)
    times.append(seconds() - start)
    checksum += tensor[12_345] + tensor[100_000] + tensor[150_000]
}
times.sort()
print("median_ms", times[times.count / 2] * 1000, "p10_ms", times[times.count / 10] * 1000, "checksum", checksum)
