// Text processing: splitting, normalising, counting words with a dictionary, sorting by
// count then alphabetically, formatting a table.
//% cell
let text = """
It was the best of times, it was the worst of times, it was the age of wisdom,
it was the age of foolishness, it was the epoch of belief, it was the epoch of
incredulity, it was the season of Light, it was the season of Darkness.
"""
func words(in text: String) -> [String] {
    text.lowercased()
        .split(whereSeparator: { !$0.isLetter })
        .map(String.init)
}
let allWords = words(in: text)
print(allWords.count)
//% cell
var counts: [String: Int] = [:]
for word in allWords { counts[word, default: 0] += 1 }
let ranked = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
//% cell
func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}
for (word, count) in ranked.prefix(6) {
    print(padded(word, to: 8) + String(repeating: "#", count: count) + " \(count)")
}
let longest = allWords.max { $0.count < $1.count } ?? ""
print("longest word: \(longest)", "distinct:", counts.count)
