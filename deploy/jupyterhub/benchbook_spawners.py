"""Spawners for a Benchbook class whose single-user containers share the node's network
(`network_mode: host`): DockerSpawner's and SwarmSpawner's defaults publish a port of a
container on a bridge or overlay network; on host networking each student's server instead
listens on a free port of its own, which the Hub's proxy reaches directly.

Used by jupyterhub_config.py (one machine, DockerSpawner) and jupyterhub_swarm_config.py
(a swarm, SwarmSpawner); both are what `make test-cluster` runs.
"""
from docker.types import Mount
from dockerspawner import DockerSpawner, SwarmSpawner
from jupyterhub.utils import random_port
from traitlets import default


class HostNetworkSpawner(DockerSpawner):
    """Host networking: no port publishing, a free port per server, chosen at start. The
    base of the two below (a traitlets default must live on a class with traits).

    `random_port()` asks the system for a free port and lets it go again; the server binds it
    seconds later. When many students start at once, two asks can get the same port before
    either server binds it (seen in a class of 16: the second server could not start, and the
    Hub, finding the port answering, routed that student to the first student's server). So the
    ports handed to this Hub's servers are kept until their server stops, and never handed out
    twice. Thread rules: the Hub runs spawners on one event loop; nothing else touches the set.
    """

    #: Ports given to servers of this Hub process that have not stopped.
    ports_in_use = set()

    @staticmethod
    def reserve_port():
        """A free port no running server of this Hub was given; kept until released."""
        while True:
            port = random_port()
            if port not in HostNetworkSpawner.ports_in_use:
                HostNetworkSpawner.ports_in_use.add(port)
                return port

    @staticmethod
    def release_port(port):
        """Lets a stopped server's port be handed out again."""
        HostNetworkSpawner.ports_in_use.discard(port)

    @default("network_name")
    def _default_network_name(self):
        return "host"

    @default("use_internal_ip")
    def _default_use_internal_ip(self):
        # Nothing to publish: the server's port is the node's.
        return True

    async def start(self):
        # The port is the node's, so it is chosen afresh for every start (as
        # LocalProcessSpawner does), before the container is created with it.
        self.port = self.reserve_port()
        try:
            return await super().start()
        except BaseException:
            self.release_port(self.port)
            raise

    async def stop(self, now=False):
        try:
            return await super().stop(now=now)
        finally:
            self.release_port(self.port)


class HostNetworkDockerSpawner(HostNetworkSpawner):
    """DockerSpawner on the Hub's own machine with host networking: the server is at the
    Hub's machine's address (`ip`, 127.0.0.1 when it listens on the loopback)."""

    async def get_ip_and_port(self):
        return ("127.0.0.1" if self.ip in ("", "0.0.0.0") else self.ip), self.port


class HostNetworkSwarmSpawner(HostNetworkSpawner, SwarmSpawner):
    """SwarmSpawner with host networking: the server is at the address of the node its
    task was scheduled on (the node's advertised address)."""

    async def get_ip_and_port(self):
        task = await self.get_task()
        node = await self.docker("inspect_node", task["NodeID"])
        address = node.get("Status", {}).get("Addr") or "127.0.0.1"
        if self.ip not in ("", "0.0.0.0"):
            address = self.ip
        return address, self.port

    @property
    def mounts(self):
        # SwarmSpawner mounts every source as a bind (a path on the node); a named volume
        # (the student's home, benchbook_class.py) is a volume mount.
        mounts = []
        for source, volume in self.volume_binds.items():
            path = source.startswith("/")
            mounts.append(Mount(target=volume["bind"], source=source, type="bind" if path else "volume",
                                read_only=volume["mode"] == "ro", driver_config=None if path else self.mount_driver_config))
        return mounts
