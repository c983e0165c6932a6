import JupyterWire

/// The kernel's version.
public let benchbookVersion = "0.1.0"

extension Kernel {
    /// Serves `kernel_info_request` (on shell or control).
    func kernelInfo(_ request: Message, on socket: ZeroMQSocket) {
        channels.reply(on: socket, to: request, type: "kernel_info_reply", content: kernelInfo)
    }

    /// The `kernel_info_reply` content.
    var kernelInfo: [String: JSONValue] {
        [
            "status": "ok",
            "protocol_version": .string(protocolVersion),
            "implementation": "benchbook",
            "implementation_version": .string(benchbookVersion),
            "language_info": [
                "name": "swift",
                "version": .string(swiftVersion),
                "mimetype": "text/x-swift",
                "file_extension": ".swift",
                "pygments_lexer": "swift",
                "codemirror_mode": "swift",
            ],
            "banner": .string("Benchbook \(benchbookVersion): Swift \(swiftVersion) cells, compiled and run in a separate host (ZeroMQ \(zeroMQVersion))."),
            "help_links": [
                ["text": "The Swift Programming Language", "url": "https://docs.swift.org/swift-book/"],
                ["text": "Swift Standard Library", "url": "https://developer.apple.com/documentation/swift/swift-standard-library"],
            ],
            // Protocol 5.5 optional features: the debugger (docs/debugger.md), no kernel subshells.
            "supported_features": ["debugger"],
            "debugger": true,
        ]
    }

    /// The version of the toolchain that compiles the cells, read once; the compiler that
    /// built the kernel when the toolchain does not say.
    var swiftVersion: String { toolchainVersion }
}
