"""Free TCP ports on the loopback interface, for servers a test or benchmark starts."""
import socket


def free_ports(count):
    """`count` different ports on 127.0.0.1 that nothing listens on now (the OS's choice; each
    is held until all are chosen, so none is chosen twice)."""
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def free_port():
    """One port on 127.0.0.1 that nothing listens on now."""
    return free_ports(1)[0]
