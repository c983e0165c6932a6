// Top-level statements with the meaning they have in main.swift: a constant given its
// value by later statements, guard let and guard case binding for the rest of the program,
// async let, a variable declared in one place and set in another.
//% cell
let isMorning = 7 < 12
let greeting: String
if isMorning {
    greeting = "Good morning"
} else {
    greeting = "Good evening"
}
print(greeting)
//% cell
let configuration: [String: String] = ["user": "ada", "retries": "3"]
guard let user = configuration["user"], let retries = Int(configuration["retries"] ?? "") else {
    fatalError("configuration is incomplete")
}
print(user, retries)
//% cell
enum Reading { case celsius(Double), fahrenheit(Double) }
let reading = Reading.celsius(21.5)
guard case .celsius(let degrees) = reading else { fatalError("expected celsius") }
print("It is \(degrees) degrees, \(user)")
//% cell
func fetchCount(_ n: Int) async -> Int {
    try? await Task.sleep(nanoseconds: 5_000_000)
    return n * retries
}
async let first = fetchCount(2)
async let second = fetchCount(5)
let total = await first + second
print(total)
//% cell
var log: [String]
log = ["start"]
func record(_ entry: String) { log.append(entry) }
record("middle")
record(greeting)
print(log)
//% cell
var attempts = 0
while attempts < retries {
    attempts += 1
}
defer { print("deferred to the end") }
print("attempts:", attempts, "first:", await first)
