@testable import CellEngine
import Testing

/// The kernel's list of open comms: what comm_info answers and what a replaced host closes.
@Suite struct CommRegistryTests {
    @Test func opensAndClosesFromEitherSideAndFiltersByTarget() {
        let registry = CommRegistry()
        registry.record(CommTraffic(.open, commID: "a", targetName: "jupyter.widget"), during: 1)
        registry.record(CommTraffic(.open, commID: "b", targetName: "other"), during: 2)
        registry.record(CommTraffic(.message, commID: "b"), during: 3)
        #expect(registry.openComms() == ["a": "jupyter.widget", "b": "other"])
        #expect(registry.openComms(targetName: "other") == ["b": "other"])
        registry.record(CommTraffic(.close, commID: "a"), during: 4)
        #expect(!registry.isOpen("a") && registry.isOpen("b"))
    }

    @Test func aRestoreClosesOnlyWhatWasOpenedAfterTheSnapshot() {
        let registry = CommRegistry()
        for (id, execution) in [("early", 1), ("snapshot", 3), ("late", 4), ("later", 7)] {
            registry.record(CommTraffic(.open, commID: id, targetName: "t"), during: execution)
        }
        #expect(registry.removeOpened(after: 3) == ["late", "later"])
        #expect(registry.openComms().keys.sorted() == ["early", "snapshot"])
        #expect(registry.removeOpened(after: 0) == ["early", "snapshot"])
        #expect(registry.openComms().isEmpty)
    }
}
