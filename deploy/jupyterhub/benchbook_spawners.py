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
    base of the two below (a traitlets default must live on a class with traits)."""

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
        self.port = random_port()
        return await super().start()


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
