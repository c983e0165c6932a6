"""The class's host-networking spawners never give one port to two running servers
(deploy/jupyterhub/benchbook_spawners.py): `random_port()` can return a port it returned a
moment ago, before the first server bound it, as it did once in a class of 16 starting at once."""
import sys

import pytest

from benchbook_kit import ROOT

sys.path.insert(0, str(ROOT / "deploy" / "jupyterhub"))
import benchbook_spawners  # noqa: E402
from benchbook_spawners import HostNetworkDockerSpawner, HostNetworkSpawner, HostNetworkSwarmSpawner  # noqa: E402


@pytest.fixture
def ports(monkeypatch):
    """random_port() answering from a list, as the system may: the same port twice."""
    answers = iter([41000, 41000, 41000, 41001, 41000])
    monkeypatch.setattr(benchbook_spawners, "random_port", lambda: next(answers))
    monkeypatch.setattr(HostNetworkSpawner, "ports_in_use", set())


def test_a_port_is_not_given_twice_until_its_server_stops(ports):
    first = HostNetworkDockerSpawner.reserve_port()
    second = HostNetworkSwarmSpawner.reserve_port()     # one set for both spawners of a Hub
    assert (first, second) == (41000, 41001)
    HostNetworkDockerSpawner.release_port(first)
    assert HostNetworkDockerSpawner.reserve_port() == 41000
