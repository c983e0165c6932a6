// Seed 000's normalisation loop exactly as the seed writes it (issue 48): three nested
// `for` loops, 224 × 224 RGBA bytes → planar floats with ImageNet mean and std, in a
// function over `[UInt8]` returning `[Float]` with the model's fixed input size, the photo
// in an earlier cell and the timing loop in a later one. `scripts/bench/normalize_bench.py` runs this file as one main.swift
// built by swiftc and as notebook cells (split at the `//% cell` lines); both print the
// median time of a call.
//% cell
import Glibc

// A deterministic "photo": every byte of every RGBA pixel set.
let photo: [UInt8] = (0..<(224 * 224 * 4)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
//% cell
func seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

func normalize(_ px: [UInt8]) -> [Float] {
    let w = 224, h = 224
    let mean: [Float] = [0.485, 0.456, 0.406]
    let std: [Float] = [0.229, 0.224, 0.225]
    var out = [Float](repeating: 0, count: 3 * w * h)
    for y in 0..<h { for x in 0..<w { for c in 0..<3 { out[c*w*h + y*w + x] = (Float(px[(y*w + x)*4 + c]) / 255 - mean[c]) / std[c] } } }
    return out
}
//% cell
var times: [Double] = []
var checksum: Float = 0
for _ in 0..<400 {
    let start = seconds()
    let tensor = normalize(photo)
    times.append(seconds() - start)
    checksum += tensor[12_345] + tensor[100_000] + tensor[150_000]
}
times.sort()
print("median_ms", times[times.count / 2] * 1000, "p10_ms", times[times.count / 10] * 1000, "checksum", checksum)
