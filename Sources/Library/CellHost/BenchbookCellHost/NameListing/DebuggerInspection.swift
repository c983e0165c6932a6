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
            return ["name": .string(listed.name), "type": .string(type), "value": .string(text), "cell": .string(listed.cell),
                    "members": .array(listed.members())]
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

/// A value's stored properties, one level deep, as the Variables panel lists them when a
/// variable is opened: a struct's, a class's or a tuple's fields, an enum case's payload.
/// A value with its own description (a `Tensor`, an `Image`, a `String`) and a collection
/// (its count and first elements are its one-line value) list none.
enum DebuggerMembers {
    /// Members listed at most.
    static let limit = 100

    static func of<T>(_ value: T) -> [JSONValue] {
        let any = value as Any
        if any is ListedContainer || any is CustomStringConvertible || any is CustomDebugStringConvertible
            || any is TextOutputStreamable { return [] }
        var mirror = Mirror(reflecting: any)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return [] }
            return of(wrapped)
        }
        if mirror.displayStyle == .enum, let payload = mirror.children.first?.value {
            mirror = Mirror(reflecting: payload)
        }
        guard [.struct, .class, .tuple].contains(mirror.displayStyle) else { return [] }
        return mirror.children.prefix(limit).enumerated().map { index, child in
            let type = TypeNames.sugared(TypeNames.userFacing(String(describing: Swift.type(of: child.value))))
            let label = child.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? String(index)
            return ["name": .string(label), "type": .string(type), "value": .string(ValueSummary.of(child.value).text)]
        }
    }
}
