// Concurrency: async functions, await at the top level, async let, task groups, actors,
// Sendable values.
//% cell
func downloadPhoto(named name: String) async -> String {
    try? await Task.sleep(nanoseconds: 10_000_000)
    return "<\(name)>"
}
func listPhotos(inGallery name: String) async -> [String] {
    ["IMG001", "IMG99", "IMG0404"]
}
//% cell
let photoNames = await listPhotos(inGallery: "Summer Vacation")
let sortedNames = photoNames.sorted()
let name = sortedNames[0]
let photo = await downloadPhoto(named: name)
print(photo)
//% cell
async let firstPhoto = downloadPhoto(named: photoNames[0])
async let secondPhoto = downloadPhoto(named: photoNames[1])
async let thirdPhoto = downloadPhoto(named: photoNames[2])
let photos = await [firstPhoto, secondPhoto, thirdPhoto]
print(photos)
//% cell
let sizes = await withTaskGroup(of: (String, Int).self) { group in
    for name in photoNames {
        group.addTask { (name, await downloadPhoto(named: name).count) }
    }
    var results: [String: Int] = [:]
    for await (name, size) in group { results[name] = size }
    return results
}
print(sizes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
//% cell
actor TemperatureLogger {
    let label: String
    var measurements: [Int]
    private(set) var max: Int
    init(label: String, measurement: Int) {
        self.label = label
        self.measurements = [measurement]
        self.max = measurement
    }
    func update(with measurement: Int) {
        measurements.append(measurement)
        if measurement > max { max = measurement }
    }
}
let logger = TemperatureLogger(label: "Outdoors", measurement: 25)
//% cell
await logger.update(with: 28)
await logger.update(with: 22)
print(await logger.max, await logger.measurements)
