/// Counts as results show them: with thousands separators, whatever the locale
/// (`11,300,000`), as IPython writes loop counts.
enum CountFormat {
    /// `value` in decimal, its digits grouped in threes from the right with commas, a minus
    /// sign first when negative.
    static func string(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        var text = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
