/// A widget with one value the user changes (a slider's number, a checkbox's state, a
/// dropdown's selection).
public protocol ValueWidget: Widget {
    /// The kind of value.
    associatedtype Value
    /// The current value; setting it updates the front end.
    var value: Value { get set }
    /// The state attribute that holds the value (`value`, or `index` for a selection).
    static var valueAttribute: String { get }
}

extension ValueWidget {
    /// Calls `handler` with the new value after each change, from the front end or from
    /// code. An error it throws is reported (standard error of the change's request).
    /// - Returns: what stops the observation.
    @discardableResult
    public func observe(_ handler: @escaping (Value) throws -> Void) -> Observation {
        observe(Self.valueAttribute) { [unowned self] in try handler(self.value) }
    }
}

/// Keeps two widgets' values equal: a change of either sets the other (both ways).
/// The second takes the first's value now.
/// - Returns: what stops both directions.
@discardableResult
public func link<A: ValueWidget, B: ValueWidget>(_ a: A, _ b: B) -> Observation
where A.Value == B.Value, A.Value: Equatable {
    b.value = a.value
    let forward = a.observe { value in if b.value != value { b.value = value } }
    let backward = b.observe { value in if a.value != value { a.value = value } }
    return Observation {
        forward.cancel()
        backward.cancel()
    }
}
