import Foundation
@testable import JupyterWire
import XCTest

/// CurveZMQ between two libzmq sockets in this process, over ipc: a client with the
/// server's public key talks; a client without it (or with another key) gets nothing.
final class CurveTests: XCTestCase {
    var endpoint = ""

    override func setUp() {
        endpoint = "ipc://" + NSTemporaryDirectory() + "benchbook-curve-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: String(endpoint.dropFirst("ipc://".count)))
    }

    func server(_ context: ZeroMQContext, key: (publicKey: String, secretKey: String)) throws -> ZeroMQSocket {
        let socket = try ZeroMQSocket(.router, context: context)
        try socket.makeCurveServer(with: CurveServerKey(publicKey: key.publicKey, secretKey: key.secretKey))
        try socket.bind(endpoint)
        return socket
    }

    func testAClientWithTheServerKeyIsServed() throws {
        let context = try ZeroMQContext()
        let key = try CurveServerKey.generatePair()
        let router = try server(context, key: key)
        let client = try ZeroMQSocket(.dealer, context: context)
        let own = try CurveServerKey.generatePair()
        try client.makeCurveClient(serverKey: key.publicKey, publicKey: own.publicKey, secretKey: own.secretKey)
        try client.connect(endpoint)
        try client.send([Data("hello".utf8)])
        XCTAssertTrue(router.waitForInput(milliseconds: 5000))
        let frames = try router.receive()
        XCTAssertEqual(frames.last, Data("hello".utf8))
        try router.send([frames[0], Data("back".utf8)])
        XCTAssertTrue(client.waitForInput(milliseconds: 5000))
        XCTAssertEqual(try client.receive(), [Data("back".utf8)])
    }

    func testAClientWithoutKeysOrWithTheWrongServerKeyGetsNothingThrough() throws {
        let context = try ZeroMQContext()
        let key = try CurveServerKey.generatePair()
        let router = try server(context, key: key)
        let plain = try ZeroMQSocket(.dealer, context: context)
        try plain.connect(endpoint)
        try plain.send([Data("plain".utf8)])
        let wrong = try ZeroMQSocket(.dealer, context: context)
        let own = try CurveServerKey.generatePair(), other = try CurveServerKey.generatePair()
        try wrong.makeCurveClient(serverKey: other.publicKey, publicKey: own.publicKey, secretKey: own.secretKey)
        try wrong.connect(endpoint)
        try wrong.send([Data("wrong key".utf8)])
        XCTAssertFalse(router.waitForInput(milliseconds: 1500))
    }

    func testKeyPairsAreChecked() throws {
        let key = try CurveServerKey.generatePair(), other = try CurveServerKey.generatePair()
        XCTAssertThrowsError(try CurveServerKey(publicKey: other.publicKey, secretKey: key.secretKey)) {
            XCTAssertEqual($0 as? CurveKeyError, .mismatchedPair)
        }
        XCTAssertThrowsError(try CurveServerKey(publicKey: key.publicKey, secretKey: "short")) {
            XCTAssertEqual($0 as? CurveKeyError, .malformed("curve_secretkey"))
        }
        XCTAssertThrowsError(try CurveServerKey(publicKey: String(repeating: "~", count: 40), secretKey: key.secretKey)) {
            XCTAssertEqual($0 as? CurveKeyError, .malformed("curve_publickey"))
        }
        let json = #"{"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5, "curve_secretkey": "\#(key.secretKey)"}"#
        let info = try ConnectionInfo(text: Array(json.utf8))
        XCTAssertThrowsError(try CurveServerKey(connection: info)) {
            XCTAssertEqual($0 as? CurveKeyError, .incompletePair(missing: "curve_publickey"))
            XCTAssertFalse(String(describing: $0).contains(key.secretKey))
        }
    }
}
