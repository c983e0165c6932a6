import Foundation
public import BenchbookRuntime

/// Controls and the output of a closure that re-runs when any of them changes: what
/// ``interact(_:columns:_:)`` builds and shows.
public final class Interaction: @unchecked Sendable, NotebookDisplayable {
    private let lock = NSLock()
    /// The controls, in the order given.
    public let controls: [Widget]
    /// Where the closure's displays appear; replaced in place at each run.
    public let output: Output
    /// The controls above the output.
    public let box: VBox
    private let body: () throws -> Void
    private var observations: [Observation] = []
    private var runCount = 0

    /// How many times the closure ran.
    public var runs: Int { lock.withLock { runCount } }

    init(controls: [Widget], body: @escaping () throws -> Void) {
        self.controls = controls
        self.body = body
        output = Output()
        box = VBox(controls + [output])
    }

    func start() {
        for control in controls {
            guard let valueKey = (type(of: control) as? any ValueWidget.Type)?.valueAttribute else { continue }
            observations.append(control.observe(valueKey) { [unowned self] in self.update() })
        }
        update()
    }

    /// Runs the closure now and shows its displays in place of the last run's. An error it
    /// throws is shown in the output and reported; the controls keep working.
    public func update() {
        lock.withLock { runCount += 1 }
        do { try output.replace(body) } catch {
            CommTargets.report(error, while: "running the interact closure")
        }
    }

    /// Stops re-running the closure and closes the controls' box and output.
    public func close() {
        observations.forEach { $0.cancel() }
        box.close()
    }

    public var mimeBundle: MimeBundle { box.mimeBundle }
}

/// Shows `controls` above an output area and runs `body` now and whenever a control's
/// value changes; each run's displays replace the last run's, in place. `body` reads the
/// controls' values itself.
///
/// While the user drags a slider, the front end keeps at most one change in flight and
/// sends only the newest value when the kernel is idle again; changes that wait in the
/// kernel's queue behind a newer change of the same control are skipped. So a slow `body`
/// never falls behind the slider.
///
/// ```swift
/// let copies = IntSlider(value: 3, range: 1...8, label: "Copies")
/// let loud = Checkbox(value: false, label: "Loud")
/// interact(copies, loud) {
///     display(Array(repeating: loud.value ? "HELLO" : "hello", count: copies.value).joined(separator: " "))
/// }
/// ```
/// - Parameters:
///   - controls: the widgets whose changes re-run `body`.
///   - show: display the controls and the output now (below the running cell).
///   - body: the code whose displays the output area shows.
/// - Returns: the interaction, to update or close it.
@discardableResult
public func interact(_ controls: Widget..., show: Bool = true, _ body: @escaping () throws -> Void) -> Interaction {
    let interaction = Interaction(controls: controls, body: body)
    if show { display(interaction.box) }
    interaction.start()
    return interaction
}
