import HostProtocol
import Testing

/// The snapshot channel's packets, as the C side (snapshot.c) writes and reads them.
@Suite struct SnapshotMessageTests {
    @Test(arguments: [SnapshotMessage.taken(pid: 4_321, afterCell: 17), .taken(pid: Int32.max, afterCell: 0),
                      .taken(pid: 1, afterCell: Int(Int64.max)), .promote])
    func messagesSurviveTheirPacket(_ message: SnapshotMessage) {
        #expect(message.packet.count == 16)
        #expect(SnapshotMessage(packet: message.packet) == message)
    }

    @Test func theLayoutIsTheCStructs() {
        // kind, pid and after_cell little-endian at offsets 0, 4 and 8 (CHostSeam.h).
        #expect(SnapshotMessage.taken(pid: 0x0102_0304, afterCell: 5).packet
            == [0x01, 0x53, 0x62, 0x62, 0x04, 0x03, 0x02, 0x01, 5, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func packetsOfAnotherSizeOrKindAreRefused() {
        let promote = SnapshotMessage.promote.packet
        #expect(SnapshotMessage(packet: Array("promote".utf8)) == nil)
        #expect(SnapshotMessage(packet: Array("snapshot 12 3".utf8)) == nil)
        #expect(SnapshotMessage(packet: promote + [0]) == nil)
        #expect(SnapshotMessage(packet: Array(promote.dropLast())) == nil)
        var unknownKind = promote
        unknownKind[0] = 0x03
        #expect(SnapshotMessage(packet: unknownKind) == nil)
        #expect(SnapshotMessage(packet: []) == nil)
    }

    @Test func theDescriptorsAreTheSeamsNumbers() {
        #expect([HostChannel.commandDescriptor, HostChannel.eventDescriptor, HostChannel.snapshotDescriptor,
                  HostChannel.crashDescriptor] == [3, 4, 5, 6])
        #expect(HostChannel.descriptorCount == 7)
        #expect(HostChannel.commandVariable == "BENCHBOOK_COMMAND_FD")
        #expect(HostChannel.serveSymbol == "benchbook_cell_host_serve")
    }
}
