"""What ``bench_api`` reads from Redis during play: key sizes, memory, CPU, and how a cluster's
primaries share the match keys."""

from __future__ import annotations

import re
import time
from typing import Any

from king_match.keys import is_cluster


def read_key_bytes(redis: Any) -> dict[str, int]:
    """``MEMORY USAGE`` summed over the match's own keys (hash, event log, move log, deadline
    entry) and over the per-player keys (token cache, rate-limiter counters, match index), and
    per kind of key (``kind:<name>``) for the breakdown in the benchmark doc."""
    totals = {"match": 0, "player": 0}
    keys = list(redis.scan_iter(count=1000))
    sizes: list[int | None] = []
    # Pipelined in small batches with pauses: it runs in the load generator's process while
    # play goes on, and a round trip per key (or one huge batch) would hold the GIL, or
    # Redis, long enough to show in the latencies being measured.
    for start in range(0, len(keys), 100):
        pipe = redis.pipeline(transaction=False)
        for key in keys[start : start + 100]:
            pipe.memory_usage(key, samples=0)
        sizes.extend(pipe.execute())
        time.sleep(0.005)
    for key, found in zip(keys, sizes, strict=True):
        name = re.sub(r"\{[^}]*\}", "", key.decode())  # (a cluster's bucket tags)
        kind = "match" if name.startswith(("bench:m:", "bench:deadlines")) else "player"
        size = found or 0
        totals[kind] += size
        if name.startswith("bench:m:"):
            detail = "match_" + (name.rsplit(":", 1)[1] if name.count(":") > 2 else "hash")
        elif name.startswith("bench:"):
            detail = name.split(":")[1]
        else:
            detail = name.split("/")[0].split(":")[0]
        totals[f"kind:{detail}"] = totals.get(f"kind:{detail}", 0) + size
    return totals


def memory(redis: Any) -> tuple[int, int]:
    """(used_memory without client connection buffers, used_memory), summed over a cluster's
    primaries."""
    if is_cluster(redis):
        infos = list(redis.info("memory", target_nodes=redis.PRIMARIES).values())
    else:
        infos = [redis.info("memory")]
    total = sum(int(info["used_memory"]) for info in infos)
    return total - sum(int(info.get("mem_clients_normal", 0)) for info in infos), total


def redis_cpu_s(redis: Any) -> float:
    """CPU seconds the Redis server (every primary of a cluster) has used so far."""
    if is_cluster(redis):
        infos = list(redis.info("cpu", target_nodes=redis.PRIMARIES).values())
    else:
        infos = [redis.info("cpu")]
    return sum(float(i["used_cpu_user"]) + float(i["used_cpu_sys"]) for i in infos)


def primary_key_share(redis: Any) -> float:
    """The largest share of the match keys one primary of a cluster holds."""
    counts = [
        sum(1 for _ in redis.get_redis_connection(node).scan_iter(match="bench:*m:*", count=1000))
        for node in redis.get_primaries()
    ]
    return max(counts) / max(1, sum(counts))
