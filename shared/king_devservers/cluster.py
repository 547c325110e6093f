"""A real local Redis Cluster for tests and benchmarks: private ``redis-server`` processes with
``cluster-enabled yes`` on loopback ports, joined and given their slots over the cluster
commands themselves (no ``redis-cli`` needed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from redis import Redis

from . import LocalRedis, free_port, start_redis

SLOTS = 16384


@dataclass
class LocalCluster:
    primaries: list[LocalRedis]
    replicas: list[LocalRedis] = field(default_factory=list)

    @property
    def url(self) -> str:
        """A URL of one node: a cluster client finds the rest."""
        return self.primaries[0].url

    @property
    def nodes(self) -> list[LocalRedis]:
        return self.primaries + self.replicas

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def start_cluster(
    primaries: int = 3,
    replicas: int = 0,
    node_timeout_ms: int = 1000,
    extra_args: tuple[str, ...] = (),
    timeout: float = 30,
) -> LocalCluster:
    """Start ``primaries`` primaries (slots split evenly) and ``replicas`` replicas of each,
    and wait until every node says the cluster is ok."""
    args = (
        "--cluster-enabled", "yes",
        "--cluster-node-timeout", str(node_timeout_ms),
        "--cluster-config-file", "nodes.conf",
        *extra_args,
    )  # fmt: skip
    bus_ports: dict[str, int] = {}

    def new_node() -> LocalRedis:
        # The bus port is chosen too: the default (port + 10000) may be taken or past 65535.
        bus = free_port()
        server = start_redis(extra_args=(*args, "--cluster-port", str(bus)))
        bus_ports[server.url] = bus
        return server

    cluster = LocalCluster([new_node() for _ in range(primaries)])
    try:
        cluster.replicas = [new_node() for _ in range(primaries * replicas)]
        clients = [Redis.from_url(node.url) for node in cluster.nodes]
        per = SLOTS // primaries
        for index, client in enumerate(clients[:primaries]):
            last = SLOTS - 1 if index == primaries - 1 else (index + 1) * per - 1
            _command(client, "CLUSTER ADDSLOTSRANGE", index * per, last)
        first = clients[0]
        for node in cluster.nodes[1:]:
            port = int(node.url.rsplit(":", 1)[1].split("/")[0])
            _command(first, "CLUSTER MEET", "127.0.0.1", port, bus_ports[node.url])
        _wait(lambda: all(_known(c) == len(clients) for c in clients), timeout, "nodes meet")
        ids = [_command(c, "CLUSTER MYID") for c in clients[:primaries]]
        for index, client in enumerate(clients[primaries:]):
            _command(client, "CLUSTER REPLICATE", _text(ids[index % primaries]))
        want = len(cluster.replicas)
        _wait(lambda: all(_replicas(c) == want for c in clients), timeout, "replicas attach")
        _wait(lambda: all(_state_ok(c) for c in clients), timeout, "the cluster is ok")
        _wait(
            lambda: all(_online_replicas(c) == replicas for c in clients[:primaries]),
            timeout,
            "replicas are in sync",
        )
        for client in clients:
            client.close()
    except Exception:
        cluster.stop()
        raise
    return cluster


def _command(client: Redis, *args: Any) -> Any:
    return client.execute_command(*args)  # type: ignore[no-untyped-call]


def _known(client: Redis) -> int:
    return len(_command(client, "CLUSTER NODES"))  # (redis-py: a dict by address)


def _replicas(client: Redis) -> int:
    nodes = _command(client, "CLUSTER NODES")
    return sum("slave" in _text(node.get("flags")) for node in nodes.values())


def _online_replicas(client: Redis) -> int:
    info = client.info("replication")
    return sum(
        1
        for name, value in info.items()
        if name.startswith("slave") and isinstance(value, dict) and value.get("state") == "online"
    )


def _state_ok(client: Redis) -> bool:
    info = _command(client, "CLUSTER INFO")  # (redis-py: a dict)
    return _text(info.get("cluster_state")) == "ok"


def _wait(check: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(check) and check():
            return
        time.sleep(0.05)
    raise RuntimeError(f"local cluster: timed out waiting until {what}")


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
