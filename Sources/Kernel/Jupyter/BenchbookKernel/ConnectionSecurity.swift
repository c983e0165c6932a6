import JupyterWire

extension Channels {
    /// Makes every socket a CurveZMQ server when the connection file carries CURVE keys,
    /// and logs what the connection leaves open (no signing key; plain TCP). Called
    /// before the sockets are bound. Never logs a key.
    /// - Throws: ``CurveKeyError`` when the keys are incomplete, malformed or not a
    ///   pair, or libzmq has no CURVE; ``ZeroMQError`` when libzmq refuses an option.
    static func secure(_ sockets: [ZeroMQSocket], connection: ConnectionInfo) throws {
        if connection.key.isEmpty {
            Log.warning("the connection file's 'key' is empty, so messages are not signed: any local process that can "
                + "reach the kernel's ports can run code in it. Start the kernel from a Jupyter client, which writes a random key.")
        }
        if let curve = try CurveServerKey(connection: connection) {
            for socket in sockets { try socket.makeCurveServer(with: curve) }
            Log.info("CurveZMQ: all \(sockets.count) sockets are encrypted with the connection file's key pair")
        } else if connection.transport == "tcp" {
            let loopback = connection.ip == "127.0.0.1" || connection.ip == "::1" || connection.ip == "localhost"
            let message = "messages travel over TCP \(loopback ? "on the loopback interface " : "")without encryption; "
                + "ask the client for CurveZMQ (jupyter_client: KernelManager.transport_encryption) or use the ipc transport"
            if loopback { Log.info(message) } else { Log.warning(message) }
        }
    }
}
