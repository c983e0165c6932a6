// `#if` around top-level code, as programs written for several platforms use it: active and
// inactive branches, nesting, declarations and statements mixed, canImport, custom
// conditions that a plain `swiftc main.swift` does not define (DEBUG).
//% cell
#if os(Linux)
print("on Linux")
#elseif os(macOS)
print("on macOS")
#else
print("somewhere else")
#endif
//% cell
#if DEBUG
let buildKind = "debug"
#else
let buildKind = "plain"
#endif
print("build:", buildKind)
//% cell
#if canImport(Foundation)
import Foundation
let formatter = NumberFormatter()
formatter.minimumFractionDigits = 2
formatter.maximumFractionDigits = 2
print(formatter.string(from: 3.14159) ?? "?")
#else
print("no Foundation")
#endif
//% cell
#if false
let impossible: Int = "never type-checked"
#endif
struct Settings {
    var retries: Int
    #if arch(x86_64) || arch(arm64)
    var wordBits = 64
    #else
    var wordBits = 32
    #endif
}
#if swift(>=5.9)
let settings = Settings(retries: 3)
#if compiler(>=5.9) && !os(Windows)
func describe(_ s: Settings) -> String { "retries \(s.retries), \(s.wordBits)-bit" }
print(describe(settings))
#endif
#else
let settings = Settings(retries: 0)
#endif
//% cell
var log: [String] = []
#if canImport(NoSuchModule)
log.append("impossible")
#elseif canImport(Glibc)
log.append("Glibc")
#endif
for i in 1...3 {
    #if os(Linux)
    log.append("step \(i)")
    #endif
}
print(log.joined(separator: ", "), settings.retries)
