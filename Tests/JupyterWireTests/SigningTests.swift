import Foundation
@testable import JupyterWire
import XCTest

final class SigningTests: XCTestCase {
    let key = "a0436f6c-1916-498b-8eb9-e81ab9368e84"
    let frames = [#"{"msg_id":"1","msg_type":"kernel_info_request"}"#, "{}", "{}", "{}"].map { Data($0.utf8) }

    /// Computed with Python: hmac.new(key, digestmod=hashlib.sha256) updated with each frame.
    let pythonSignature = "23d21ade63d42fc48bbe2721cd9045ceffb260c3521b7d246495f23adfca79a0"

    func testSignatureMatchesPythonHMAC() throws {
        let signer = try MessageSigner(key: key)
        XCTAssertEqual(signer.signature(for: frames), pythonSignature)
    }

    func testVerificationAcceptsTheRightSignatureOnly() throws {
        let signer = try MessageSigner(key: key)
        XCTAssertTrue(signer.isValid(signature: Data(pythonSignature.utf8), for: frames))
        var tampered = Array(pythonSignature.utf8)
        tampered[0] = UInt8(ascii: "0")
        XCTAssertFalse(signer.isValid(signature: Data(tampered), for: frames))
        XCTAssertFalse(signer.isValid(signature: Data(), for: frames))
        XCTAssertFalse(signer.isValid(signature: Data(pythonSignature.utf8), for: frames.reversed()))
    }

    func testEmptyKeyTurnsSigningOff() throws {
        let signer = try MessageSigner(key: "")
        XCTAssertEqual(signer.signature(for: frames), "")
        XCTAssertTrue(signer.isValid(signature: Data(), for: frames))
    }

    func testOtherSchemesAreRejected() {
        XCTAssertThrowsError(try MessageSigner(key: key, scheme: "hmac-md5")) { error in
            XCTAssertEqual(error as? WireError, .unsupportedSignatureScheme("hmac-md5"))
        }
    }
}

final class FramingTests: XCTestCase {
    let codec = WireCodec(signer: try! MessageSigner(key: "secret"))

    func testRoundTripKeepsIdentitiesContentAndBuffers() throws {
        let header = MessageHeader(messageType: "execute_request", session: "s1")
        let message = Message(identities: [Data("client-1".utf8)], header: header,
                              content: ["code": "print(1)", "silent": false], buffers: [Data([1, 2, 3])])
        let frames = codec.encode(message)
        XCTAssertEqual(frames[0], Data("client-1".utf8))
        XCTAssertEqual(frames[1], Data("<IDS|MSG>".utf8))
        XCTAssertEqual(frames.count, 2 + 5 + 1)
        let decoded = try codec.decode(frames)
        XCTAssertEqual(decoded.identities, [Data("client-1".utf8)])
        XCTAssertEqual(decoded.type, "execute_request")
        XCTAssertEqual(decoded.content["code"], "print(1)")
        XCTAssertEqual(decoded.content["silent"], false)
        XCTAssertEqual(decoded.buffers, [Data([1, 2, 3])])
    }

    func testMalformedMessagesAreRejectedWithTheReason() throws {
        let good = codec.encode(Message(header: MessageHeader(messageType: "kernel_info_request", session: "s"), content: [:]))
        XCTAssertThrowsError(try codec.decode(Array(good.dropFirst()))) { XCTAssertEqual($0 as? WireError, .missingDelimiter) }
        XCTAssertThrowsError(try codec.decode(Array(good.prefix(3)))) { XCTAssertEqual($0 as? WireError, .truncated(frameCount: 2)) }
        var badSignature = good
        badSignature[1] = Data("0000".utf8)
        XCTAssertThrowsError(try codec.decode(badSignature)) { XCTAssertEqual($0 as? WireError, .badSignature) }

        let notJSON = [Data("{oops".utf8), Data("{}".utf8), Data("{}".utf8), Data("{}".utf8)]
        let signed = [Data("<IDS|MSG>".utf8), Data(codec.signer.signature(for: notJSON).utf8)] + notJSON
        XCTAssertThrowsError(try codec.decode(signed)) { XCTAssertEqual($0 as? WireError, .invalidJSON("header")) }

        let noType = [Data(#"{"msg_id":"1"}"#.utf8), Data("{}".utf8), Data("{}".utf8), Data("{}".utf8)]
        let signedNoType = [Data("<IDS|MSG>".utf8), Data(codec.signer.signature(for: noType).utf8)] + noType
        XCTAssertThrowsError(try codec.decode(signedNoType)) { XCTAssertEqual($0 as? WireError, .invalidHeader("msg_type")) }
    }

    func testParentHeaderIsEchoedVerbatim() throws {
        let request = [#"{"msg_id":"abc","msg_type":"execute_request","session":"s","username":"u","date":"2026-01-01T00:00:00.000000Z","version":"5.3","subshell_id":null}"#, "{}", "{}", "{}"].map { Data($0.utf8) }
        let frames = [Data("<IDS|MSG>".utf8), Data(codec.signer.signature(for: request).utf8)] + request
        let decoded = try codec.decode(frames)
        let reply = Message(header: MessageHeader(messageType: "execute_reply", session: "k"),
                            parentHeaderJSON: decoded.headerJSON, content: ["status": "ok"])
        let parent = try JSONDecoder().decode(JSONValue.self, from: codec.encode(reply)[3])
        XCTAssertEqual(parent["msg_id"], "abc")
        XCTAssertEqual(parent["subshell_id"], .null)
        XCTAssertEqual(parent["date"], "2026-01-01T00:00:00.000000Z")
    }

    func testConnectionFileEndpoints() throws {
        let json = #"{"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "hb_port": 5, "ip": "127.0.0.1", "key": "k", "transport": "tcp", "signature_scheme": "hmac-sha256"}"#
        let info = try ConnectionInfo(text: Array(json.utf8))
        XCTAssertEqual(info.endpoint(port: info.shellPort), "tcp://127.0.0.1:1")
        var ipc = info
        ipc.transport = "ipc"
        ipc.ip = "/tmp/kernel"
        XCTAssertEqual(ipc.endpoint(port: 5), "ipc:///tmp/kernel-5")
        var ipv6 = info
        ipv6.ip = "::1"
        XCTAssertTrue(ipv6.isIPv6)
        XCTAssertEqual(ipv6.endpoint(port: 7), "tcp://[::1]:7")
        var local = info
        local.ip = "localhost"
        XCTAssertFalse(local.isIPv6)
        XCTAssertEqual(local.endpoint(port: 8), "tcp://127.0.0.1:8", "ZeroMQ does not resolve host names when it binds")
    }
}
