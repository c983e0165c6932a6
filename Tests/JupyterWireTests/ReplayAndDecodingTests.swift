import Foundation
@testable import JupyterWire
import XCTest

final class ReplayTests: XCTestCase {
    func signed(_ codec: WireCodec, _ parts: [String]) -> [Data] {
        let frames = parts.map { Data($0.utf8) }
        return [Data("client".utf8), Data("<IDS|MSG>".utf8), Data(codec.signer.signature(for: frames).utf8)] + frames
    }

    func request(_ id: String) -> [String] {
        [#"{"msg_id":"\#(id)","msg_type":"execute_request","session":"s"}"#, "{}", "{}", #"{"code":"1"}"#]
    }

    func testASignedMessageIsAcceptedOnceAndItsReplayRefused() throws {
        let codec = WireCodec(signer: try MessageSigner(key: "secret"))
        let frames = signed(codec, request("a"))
        XCTAssertEqual(try codec.decode(frames).header.messageID, "a")
        XCTAssertThrowsError(try codec.decode(frames)) { XCTAssertEqual($0 as? WireError, .replayed) }
        // The same frames from another peer (other identity) are still a replay.
        var other = frames
        other[0] = Data("another-client".utf8)
        XCTAssertThrowsError(try codec.decode(other)) { XCTAssertEqual($0 as? WireError, .replayed) }
        XCTAssertEqual(try codec.decode(signed(codec, request("b"))).header.messageID, "b")
    }

    func testAWrongSignatureIsNotRecorded() throws {
        let codec = WireCodec(signer: try MessageSigner(key: "secret"))
        var frames = signed(codec, request("a"))
        let good = frames[2]
        frames[2] = Data(String(repeating: "0", count: 64).utf8)
        XCTAssertThrowsError(try codec.decode(frames)) { XCTAssertEqual($0 as? WireError, .badSignature) }
        XCTAssertEqual(codec.history?.count, 0)
        frames[2] = good
        XCTAssertNoThrow(try codec.decode(frames))
    }

    func testTheHistoryIsBoundedAndForgetsTheOldestFirst() throws {
        let codec = WireCodec(signer: try MessageSigner(key: "secret"), historyCapacity: 3)
        let messages = (0..<5).map { signed(codec, request("m\($0)")) }
        for message in messages { XCTAssertNoThrow(try codec.decode(message)) }
        XCTAssertEqual(codec.history?.count, 3)
        // m2, m3, m4 are remembered; m0 and m1 were forgotten, oldest first.
        for message in messages[2...] {
            XCTAssertThrowsError(try codec.decode(message)) { XCTAssertEqual($0 as? WireError, .replayed) }
        }
        XCTAssertNoThrow(try codec.decode(messages[1]))
        // Accepting m1 again pushed out m2, the oldest.
        XCTAssertNoThrow(try codec.decode(messages[2]))
    }

    func testWithoutAKeyThereIsNoHistory() throws {
        let codec = WireCodec(signer: try MessageSigner(key: ""))
        let frames = signed(codec, request("a"))
        XCTAssertNil(codec.history)
        XCTAssertNoThrow(try codec.decode(frames))
        XCTAssertNoThrow(try codec.decode(frames))
    }

    func testSignatureHistoryIsSafeFromManyThreads() {
        let history = SignatureHistory(capacity: 1000)
        let total = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for n in 0..<500 where history.insert(Data("sig-\(n)".utf8)) { total.add(1) }
        }
        // Every signature was accepted by exactly one thread.
        XCTAssertEqual(total.value, 500)
    }
}

/// A counter shared by threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.lock(); count += n; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

final class UndecodableMessageTests: XCTestCase {
    let codec = WireCodec(signer: try! MessageSigner(key: "secret"))

    func signed(_ frames: [Data]) -> [Data] {
        [Data("peer".utf8), Data("<IDS|MSG>".utf8), Data(codec.signer.signature(for: frames).utf8)] + frames
    }

    let header = Data(#"{"msg_id":"r1","msg_type":"execute_request","session":"s","extra":1}"#.utf8)

    func undecodable(_ frames: [Data]) -> UndecodableMessage? {
        do { _ = try codec.decode(signed(frames)) } catch {
            if case .undecodable(let message) = error { return message }
        }
        return nil
    }

    func testInvalidUTF8ContentCarriesTheHeaderAndWhatWasWrong() throws {
        let message = try XCTUnwrap(undecodable([header, Data("{}".utf8), Data("{}".utf8), Data([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])]))
        XCTAssertEqual(message.header.messageID, "r1")
        XCTAssertEqual(message.identities, [Data("peer".utf8)])
        XCTAssertEqual(message.replyType, "execute_reply")
        XCTAssertEqual(message.problem, "the content frame is not valid UTF-8; send it as UTF-8 JSON")
        // The reply's parent header is the header exactly as sent.
        XCTAssertEqual(message.replyParent.headerJSON["extra"], 1)
    }

    func testContentSentAsAListOrAsTextIsNamed() throws {
        let list = try XCTUnwrap(undecodable([header, Data("{}".utf8), Data("{}".utf8), Data("[1, 2]".utf8)]))
        XCTAssertEqual(list.problem, "the content frame is an array, not a JSON object")
        let metadata = try XCTUnwrap(undecodable([header, Data("{}".utf8), Data("not json".utf8), Data("{}".utf8)]))
        XCTAssertTrue(metadata.problem.hasPrefix("the metadata frame is not valid JSON (invalid JSON at byte 0: "), metadata.problem)
        let parent = try XCTUnwrap(undecodable([header, Data("\"text\"".utf8), Data("{}".utf8), Data("{}".utf8)]))
        XCTAssertEqual(parent.problem, "the parent_header frame is a string, not a JSON object")
    }

    func testOnlyRequestsExpectAReply() throws {
        let comm = Data(#"{"msg_id":"c1","msg_type":"comm_msg","session":"s"}"#.utf8)
        let message = try XCTUnwrap(undecodable([comm, Data("{}".utf8), Data("{}".utf8), Data("[]".utf8)]))
        XCTAssertNil(message.replyType)
    }

    /// Issue 37, item 8: the work one message costs is bounded (a signed 50 MB message of
    /// 5 M small objects held the shell thread 28 s and took 1.37 GB).
    func testAMessageOfMoreValuesThanTheBudgetIsRefusedEarly() throws {
        let many = "[" + Array(repeating: "{}", count: WireCodec.maximumValues).joined(separator: ",") + "]"
        let message = try XCTUnwrap(undecodable([header, Data("{}".utf8), Data("{}".utf8), Data("{\"x\": \(many)}".utf8)]))
        XCTAssertTrue(message.problem.hasPrefix("the message holds more than 1,000,000 JSON values"), message.problem)
        // The budget is the message's: values in every frame count.
        let half = "[" + Array(repeating: "1", count: WireCodec.maximumValues / 2).joined(separator: ",") + "]"
        let split = try XCTUnwrap(undecodable([header, Data("{}".utf8), Data("{\"m\": \(half)}".utf8),
                                               Data("{\"c\": \(half)}".utf8)]))
        XCTAssertTrue(split.problem.contains("the content frame passed the limit"), split.problem)
        let fewer = "[" + Array(repeating: "1", count: 1000).joined(separator: ",") + "]"
        XCTAssertNil(undecodable([header, Data("{}".utf8), Data("{}".utf8), Data("{\"c\": \(fewer)}".utf8)]))
    }

    func testAnUnreadableHeaderIsDroppedAsBefore() {
        XCTAssertThrowsError(try codec.decode(signed([Data([0xff]), Data("{}".utf8), Data("{}".utf8), Data("{}".utf8)]))) {
            XCTAssertEqual($0 as? WireError, .invalidJSON("header"))
        }
    }
}

final class ConnectionFileTests: XCTestCase {
    func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "benchbook-connection-test-\(UUID().uuidString).json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func testErrorsNameTheFieldButNeverAValue() throws {
        let secret = "do-not-print-this-key"
        let wrongType = try write(#"{"shell_port": "\#(secret)", "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5, "key": "\#(secret)"}"#)
        XCTAssertThrowsError(try ConnectionInfo(contentsOf: wrongType)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("'shell_port' is a string, not a number"), text)
            XCTAssertFalse(text.contains(secret), text)
        }
        let notJSON = try write(#"{"key": "\#(secret)", "#)
        XCTAssertThrowsError(try ConnectionInfo(contentsOf: notJSON)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("not valid JSON"), text)
            XCTAssertFalse(text.contains(secret), text)
        }
        let missing = try write(#"{"iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5, "key": "\#(secret)"}"#)
        XCTAssertThrowsError(try ConnectionInfo(contentsOf: missing)) {
            XCTAssertTrue(String(describing: $0).contains("'shell_port' is missing"))
        }
        XCTAssertThrowsError(try ConnectionInfo(contentsOf: "/nonexistent/connection.json")) {
            XCTAssertTrue(String(describing: $0).contains("the connection file /nonexistent/connection.json is not usable: "
                + "it cannot be opened: No such file or directory"), "\($0)")
        }
    }

    /// Ports outside 1...65535 were wrapped by ZeroMQ (-1 bound 65535, 1e5 bound 34464); a
    /// null key started the kernel unsigned. Both are errors now, which name the field and
    /// the value; an explicit "" is still allowed.
    func testPortsOutOfRangeAndANullKeyAreErrors() throws {
        func file(shell: String, key: String = #""k""#) -> String {
            #"{"shell_port": \#(shell), "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5, "key": \#(key)}"#
        }
        for port in ["-1", "0", "65536", "100000", "99999999999999999999"] {
            XCTAssertThrowsError(try ConnectionInfo(contentsOf: write(file(shell: port))), port) {
                XCTAssertTrue(String(describing: $0).contains("'shell_port' is \(port), not a port number from 1 to 65535"), "\(port): \($0)")
            }
        }
        for port in ["1e5", "5555.5", "1.0"] {
            XCTAssertThrowsError(try ConnectionInfo(contentsOf: write(file(shell: port))), port) {
                XCTAssertTrue(String(describing: $0).contains("'shell_port' is \(port), not a whole number"), "\(port): \($0)")
            }
        }
        XCTAssertEqual(try ConnectionInfo(contentsOf: write(file(shell: "65535"))).shellPort, 65535)
        XCTAssertThrowsError(try ConnectionInfo(contentsOf: write(file(shell: "1", key: "null")))) {
            XCTAssertTrue(String(describing: $0).contains("'key' is null"), "\($0)")
        }
        XCTAssertEqual(try ConnectionInfo(contentsOf: write(file(shell: "1", key: #""""#))).key, "")
    }

    func testCurveKeysAreRead() throws {
        let pair = try CurveServerKey.generatePair()
        let path = try write(#"{"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5, "key": "k", "curve_publickey": "\#(pair.publicKey)", "curve_secretkey": "\#(pair.secretKey)"}"#)
        let info = try ConnectionInfo(contentsOf: path)
        XCTAssertEqual(info.curvePublicKey, pair.publicKey)
        XCTAssertNotNil(try CurveServerKey(connection: info))
    }
}
