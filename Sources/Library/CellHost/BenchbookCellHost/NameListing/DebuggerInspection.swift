internal import BenchbookRuntime
import JSONCore

extension _BenchbookCell {
    /// Sends the kernel's debugger the notebook's variables (not functions or types) as one
    /// display of type ``debuggerVariablesMimeType``: name, static type, the one-line value
    /// `%who` shows, and the defining cell. The kernel writes the cell that calls this, as it
    /// writes `%who`'s.
    public static func inspectNames(_ names: [ListedName]) {
        let variables: [JSONValue] = names.filter { $0.matches.contains("var") }.sorted { $0.name < $1.name }.map { listed in
            let described = listed.describe()
            var text = TextLine.truncated(described.text, to: NameTable.valueWidth * 2)
            if let count = described.count { text = "\(count) element\(count == 1 ? "" : "s"): " + text }
            let type = listed.heldType.map { "\(listed.type) (holding \($0))" } ?? listed.type
            return ["name": .string(listed.name), "type": .string(type), "value": .string(text), "cell": .string(listed.cell)]
        }
        display(MimeBundle(plainText: "\(variables.count) variables").adding(debuggerVariablesMimeType, json: .array(variables)))
    }

    /// Sends the kernel's debugger the rich view of one variable: its
    /// ``DebuggerInspectable`` bundle, else its notebook display, else its one-line value.
    public static func richInspect<T>(_ value: T) {
        if let inspectable = value as? DebuggerInspectable {
            display(inspectable.debuggerBundle)
        } else if value is NotebookDisplayable {
            display(value)
        } else {
            display(MimeBundle(plainText: ValueSummary.of(value).text))
        }
    }
}
