@testable import BenchbookRuntime
import Foundation
import HostProtocol
import Testing

/// The notebook library's side of the host protocol: the events displays become.
@Suite struct HostEventTests {
    @Test func displaysBecomeEventsWithTheImageSize() {
        let bundle = MimeBundle(png: Data([1, 2, 3]), width: 28, height: 14, plainText: "an image")
        let event = bundle.displayEvent(displayID: "d1", isUpdate: true)
        guard case .display(let display) = event else { Issue.record("\(event)"); return }
        #expect(display.data["image/png"] == "AQID")
        #expect(display.data["text/plain"] == "an image")
        #expect(display.metadata["image/png"]?["width"] == 28)
        #expect(display.metadata["image/png"]?["height"] == 14)
        #expect(display.displayID == "d1" && display.isUpdate)
        #expect(MimeBundle(plainText: "7").resultEvent == .result(data: ["text/plain": "7"], metadata: [:]))
    }

    @Test func generatedNamesAreRemovedFromDescriptions() {
        #expect(removingCellModuleNames("Cell12.Point(x: 1)") == "Point(x: 1)")
    }

    @Test func inputOutsideAKernelSaysSo() {
        #expect(throws: InputError.self) { try input("name?") }
    }
}
