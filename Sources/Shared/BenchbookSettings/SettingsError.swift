/// A `BENCHBOOK_*` environment variable set to a value it does not take.
///
/// Its description names the variable, the value and what the variable takes, for example
/// `BENCHBOOK_LOOP_CHECKS=maybe is not 0 or 1: 0 compiles loops without interrupt checks, 1 (the default) with them`.
public struct SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The variable, `BENCHBOOK_...`.
    public var variable: String
    /// The value it was set to.
    public var value: String
    /// What a value must be, as a noun phrase: `a size`, `0 or 1`.
    public var expected: String
    /// What the values do, to choose one.
    public var values: String

    /// Creates an error.
    /// - Parameters:
    ///   - variable: the variable's name.
    ///   - value: what it was set to.
    ///   - expected: what a value must be (`a number of seconds`).
    ///   - values: what the values do.
    public init(variable: String, value: String, expected: String, values: String) {
        self.variable = variable
        self.value = value
        self.expected = expected
        self.values = values
    }

    public var description: String { "\(variable)=\(value) is not \(expected): \(values) (docs/settings.md)" }
}

/// Reads `BENCHBOOK_*` variables from one environment, turning each into a value of its type
/// or a ``SettingsError`` that says what the variable takes. Used by ``KernelSettings`` and
/// ``LibrarySettings`` only: they are the one place each variable is read.
struct SettingsReader {
    let environment: [String: String]

    /// The variable's text; nil when unset or empty.
    func text(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// A switch written `0`/`1` (also `off`/`on`, `false`/`true`, `no`/`yes`).
    /// - Throws: ``SettingsError`` for any other value.
    func flag(_ name: String, default fallback: Bool, meaning: String) throws(SettingsError) -> Bool {
        guard let value = text(name) else { return fallback }
        switch value.lowercased() {
        case "1", "on", "true", "yes": return true
        case "0", "off", "false", "no": return false
        default: throw SettingsError(variable: name, value: value, expected: "0 or 1", values: meaning)
        }
    }

    /// One of a few words.
    /// - Throws: ``SettingsError`` for any other value.
    func choice<Value>(_ name: String, _ choices: [String: Value], default fallback: Value, meaning: String) throws(SettingsError) -> Value {
        guard let value = text(name) else { return fallback }
        guard let chosen = choices[value] else {
            throw SettingsError(variable: name, value: value,
                                expected: "one of " + choices.keys.sorted().joined(separator: ", "), values: meaning)
        }
        return chosen
    }

    /// A number of seconds, 0 or more (at most a day).
    /// - Throws: ``SettingsError`` for text that is not such a number.
    func seconds(_ name: String, default fallback: Double, meaning: String) throws(SettingsError) -> Double {
        guard let value = text(name) else { return fallback }
        guard let seconds = Double(value), seconds >= 0, seconds.isFinite else {
            throw SettingsError(variable: name, value: value, expected: "a number of seconds", values: meaning)
        }
        return min(seconds, 86_400)
    }

    /// A whole number, 1 or more.
    /// - Throws: ``SettingsError`` for text that is not such a number.
    func positive(_ name: String, meaning: String) throws(SettingsError) -> Int64? {
        guard let value = text(name) else { return nil }
        guard let number = Int64(value), number > 0 else {
            throw SettingsError(variable: name, value: value, expected: "a whole number above 0", values: meaning)
        }
        return number
    }
}
