// Codable with Foundation: encoding and decoding a value, sorted keys so the text is the
// same every run, errors for bad input.
//% cell
import Foundation
struct Landmark: Codable {
    var name: String
    var foundingYear: Int
    var location: Coordinate
    struct Coordinate: Codable {
        var latitude: Double
        var longitude: Double
    }
}
//% cell
let landmark = Landmark(name: "Big Ben", foundingYear: 1859, location: .init(latitude: 51.5, longitude: -0.12))
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
let data = try encoder.encode(landmark)
print(String(decoding: data, as: UTF8.self))
//% cell
let decoded = try JSONDecoder().decode(Landmark.self, from: data)
print(decoded.name, decoded.foundingYear, decoded.location.latitude)
do {
    _ = try JSONDecoder().decode(Landmark.self, from: Data("{\"name\": 1}".utf8))
} catch DecodingError.typeMismatch(let type, _) {
    print("type mismatch:", type)
} catch {
    print("other error")
}
