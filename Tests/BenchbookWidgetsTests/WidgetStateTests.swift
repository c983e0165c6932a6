@testable import BenchbookRuntime
@testable import BenchbookWidgets
import Foundation
import JSONCore
import Testing

/// The widget state encoding (state, buffer_paths, buffers) and each widget's state against
/// the state ipywidgets 8 gives the same kind (Tests/Fixtures/widgets/ipywidgets-state.json,
/// written by scripts/widgets/dump_ipywidgets_state.py). Outside a kernel widgets send
/// nothing, so these run without one.
@Suite struct WidgetStateTests {
    static let reference: JSONValue = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/widgets/ipywidgets-state.json")
        return try! JSONValue(parsing: [UInt8](try! Data(contentsOf: url)))
    }()

    @Test func binaryAttributesLeaveTheStateAndBecomeBuffersInKeyOrder() {
        let (data, buffers) = WidgetState.message(method: "update", state: ["format": "png", "value": "stale"],
                                                  binary: ["value": [1, 2], "alpha": [9]])
        #expect(data["method"] == "update")
        #expect(data["state"] == ["format": "png"])
        #expect(data["buffer_paths"] == [["alpha"], ["value"]])
        #expect(buffers == [[9], [1, 2]])
        let (state, binary) = WidgetState.attributes(of: data, buffers: buffers)
        #expect(state == ["format": "png"])
        #expect(binary == ["alpha": [9], "value": [1, 2]])
    }

    @Test func anOpeningHasNoMethodAndNestedBufferPathsAreNotTakenAsAttributes() {
        let (data, buffers) = WidgetState.message(method: nil, state: ["a": 1])
        #expect(data == ["state": ["a": 1], "buffer_paths": []])
        #expect(buffers.isEmpty)
        let nested: JSONValue = ["state": ["x": ["y": nil]], "buffer_paths": [["x", "y", 0]]]
        #expect(WidgetState.attributes(of: nested, buffers: [[1]]).binary.isEmpty)
    }

    static let kinds: [(String, @Sendable () -> Widget)] = [
        ("IntSlider", { IntSlider() }), ("FloatSlider", { FloatSlider() }), ("Checkbox", { Checkbox() }),
        ("Dropdown", { Dropdown(options: ["a"]) }), ("ToggleButtons", { ToggleButtons(options: ["a"]) }),
        ("Button", { Button(label: "b") }), ("Label", { Label() }), ("HTML", { HTML() }),
        ("Image", { ImageWidget() }), ("Output", { Output() }), ("HBox", { HBox([]) }), ("VBox", { VBox([]) }),
        ("Layout", { Layout() }),
    ]

    @Test(arguments: kinds.map(\.0))
    func stateHasTheAttributesAndNamesOfIpywidgets(_ kind: String) throws {
        let widget = try #require(Self.kinds.first { $0.0 == kind }).1()
        let expected = try #require(Self.reference["kinds"]?[kind])
        let (state, binaryKeys) = widget.stateSnapshot
        #expect(Set(state.keys).union(binaryKeys).sorted() == expected["keys"]?.arrayValue?.compactMap(\.stringValue))
        for (key, value) in expected["names"]?.objectValue ?? [:] {
            #expect(state[key] == value, "\(kind).\(key)")
        }
        if let described = widget as? DescribedControl, let style = Self.reference["styles"]?[kind] {
            #expect(described.style.stateSnapshot.state.keys.sorted() == style["keys"]?.arrayValue?.compactMap(\.stringValue))
        }
    }

    @Test func frontEndUpdatesSetValuesAndCallObserversOnlyOnChange() throws {
        let slider = IntSlider(value: 3, range: 0...10)
        var seen: [Int] = []
        slider.observe { seen.append($0) }
        try slider.comm.receive(CommMessage(data: ["method": "update", "state": ["value": 7], "buffer_paths": []]))
        try slider.comm.receive(CommMessage(data: ["method": "update", "state": ["value": 7], "buffer_paths": []]))
        slider.value = 2
        #expect(seen == [7, 2])
        #expect(slider.value == 2)
    }

    /// ipywidgets gives toggle buttons a fixed width that cuts long labels ("resize 256 +
    /// crop…" in JupyterLab); `buttonWidth = "auto"` sets the style model's `button_width`.
    @Test func toggleButtonsCanFitTheirLabels() {
        let toggles = ToggleButtons(options: ["resize 256 + crop 224", "squash to 224"])
        #expect(toggles.style.buttonWidth == "")
        toggles.style.buttonWidth = "auto"
        #expect(toggles.style.stateSnapshot.state["button_width"] == .string("auto"))
        #expect(toggles.style.buttonWidth == "auto")
    }

    @Test func selectionsAreChosenByIndexAndReadAsLabels() throws {
        let filter = Dropdown(options: ["box", "bilinear", "nearest"], value: "bilinear")
        #expect(filter.index == 1 && filter.value == "bilinear")
        try filter.comm.receive(CommMessage(data: ["method": "update", "state": ["index": 2], "buffer_paths": []]))
        #expect(filter.value == "nearest")
        filter.value = "not an option"
        #expect(filter.value == "nearest")
    }

    @Test func linkedWidgetsFollowEachOtherAndAThrowingObserverDoesNotStopOthers() {
        let a = IntSlider(value: 1), b = IntSlider(value: 9)
        let linked = link(a, b)
        #expect(b.value == 1)
        a.value = 5
        #expect(b.value == 5)
        b.value = 6
        #expect(a.value == 6)
        struct Boom: Error {}
        var after = 0
        a.observe { _ in throw Boom() }
        a.observe { after = $0 }
        a.value = 8
        #expect(after == 8 && b.value == 8)
        linked.cancel()
        a.value = 1
        #expect(b.value == 8)
    }

    @Test func imageBytesTravelAsTheValueBuffer() {
        let image = ImageWidget(png: Data([1, 2, 3]))
        #expect(image.stateSnapshot.binaryKeys == ["value"])
        #expect(image.stateSnapshot.state["value"] == nil)
        image.value = Data([4])
        #expect(image.value == Data([4]))
    }

    @Test func outputReplaceShowsExactlyTheBodysDisplaysAndAnError() {
        let output = Output()
        output.replace { display("one"); display("two") }
        #expect(output.outputs.count == 2)
        #expect(output.outputs[0]["output_type"] == "display_data")
        #expect(output.outputs[1]["data"]?["text/plain"] == "two")
        struct Broken: Error {}
        #expect(throws: Broken.self) { try output.replace { display("three"); throw Broken() } }
        #expect(output.outputs.count == 2)
        #expect(output.outputs[1]["name"] == "stderr")
        output.clear()
        #expect(output.outputs.isEmpty)
    }

    @Test func outputAppendTextAddsAStreamOutputAfterWhatItShows() {
        let output = Output()
        output.replace { display("one") }
        output.appendText("two\n")
        output.appendText("careful\n", stream: "stderr")
        #expect(output.outputs.count == 3)
        #expect(output.outputs[1] == ["output_type": "stream", "name": "stdout", "text": "two\n"])
        #expect(output.outputs[2]["name"] == "stderr" && output.outputs[2]["text"] == "careful\n")
        #expect(output.stateSnapshot.state["outputs"]?.arrayValue?.count == 3)
    }

    @Test func interactRunsAtOnceAndOnEachChangeReplacingItsOutput() throws {
        let size = IntSlider(value: 2, range: 1...5)
        let flag = Checkbox(value: false)
        let interaction = interact(size, flag, show: false) {
            for _ in 0..<size.value { display(flag.value ? "on" : "off") }
        }
        #expect(interaction.runs == 1 && interaction.output.outputs.count == 2)
        try size.comm.receive(CommMessage(data: ["method": "update", "state": ["value": 4], "buffer_paths": []]))
        #expect(interaction.runs == 2 && interaction.output.outputs.count == 4)
        flag.value = true
        #expect(interaction.output.outputs.first?["data"]?["text/plain"] == "on")
    }

    @Test func updateStatesListsEveryWidgetWithBuffersUnderItsModelID() throws {
        let slider = IntSlider(value: 4)
        let picture = ImageWidget(png: Data([7, 8]))
        let (data, buffers) = WidgetControl.updateStates(of: [slider, picture])
        #expect(data["method"] == "update_states")
        #expect(data["states"]?[slider.modelID]?["model_name"] == "IntSliderModel")
        #expect(data["states"]?[slider.modelID]?["state"]?["value"] == 4)
        #expect(data["states"]?[picture.modelID]?["state"]?["value"] == nil)
        #expect(data["buffer_paths"] == [[.string(picture.modelID), "state", "value"]])
        #expect(buffers == [[7, 8]])
        #expect(WidgetControl.openWidgets().contains { $0 === picture })
        picture.close()
        #expect(!WidgetControl.openWidgets().contains { $0 === picture })
    }

    @Test func aButtonClickCallsItsHandler() {
        let button = Button(label: "Go")
        var clicks = 0
        button.onClick { _ in clicks += 1 }
        button.click()
        button.dispatchTestClick()
        #expect(clicks == 2)
    }
}

private extension Button {
    /// A click as the front end sends it: a `custom` message.
    func dispatchTestClick() {
        try? comm.receive(CommMessage(data: ["method": "custom", "content": ["event": "click"]]))
    }
}
