"""Type hints of the compiled module (bindings/python/src/lib.rs)."""

from typing import Any, Mapping, Sequence, overload

import pyarrow as pa

_Param = str | int | float

__version__: str

class Error(ValueError):
    """Something given to hashring_lab is wrong; the message says what, and what is allowed."""

class ScenarioError(Error):
    """A cluster's parameters are wrong (the command line's flags and the page's link say the same)."""

class ConfigError(Error):
    """A system's config could not be read."""

class StepError(Error):
    """A change cannot be applied to the cluster."""

class KeyColumnError(Error):
    """The keys are of a type that is not placed, or a key cannot be hashed."""

class Cluster:
    """An algorithm over servers, as `hashring-lab` builds it from its flags or a system's
    config, and the changes applied since. Immutable: a change makes a new cluster. Pickles
    as its parameters and steps."""

    def __init__(
        self,
        algo: str = "ring",
        nodes: str | Sequence[str] | Mapping[str, float] | None = None,
        *,
        hash: str | None = None,
        vnodes: _Param | None = None,
        label: str | None = None,
        down: str | Sequence[str] | None = None,
        probes: _Param | None = None,
        table: _Param | None = None,
        pg_num: _Param | None = None,
        c: _Param | None = None,
        slotmap: str | None = None,
        tokens: str | None = None,
        seed: _Param | None = None,
    ) -> None: ...
    @staticmethod
    def from_config(
        text: str,
        *,
        hash: str | None = None,
        vnodes: _Param | None = None,
        label: str | None = None,
        probes: _Param | None = None,
        table: _Param | None = None,
        pg_num: _Param | None = None,
        c: _Param | None = None,
        seed: _Param | None = None,
        down: str | Sequence[str] | None = None,
        rule: str | int | None = None,
    ) -> Cluster:
        """The cluster a system's config describes (nginx, HAProxy, twemproxy, Envoy,
        Redis Cluster's CLUSTER NODES/SHARDS, Cassandra's nodetool ring, a Ceph CRUSH map,
        flat or hosts and racks); `down` marks the config's servers down after it (an OSD
        out, which a CRUSH map cannot say); `rule` is the CRUSH rule the pool uses, by name
        or id (default: the map's first replicated rule)."""
    @staticmethod
    def from_link(link: str) -> Cluster:
        """The cluster of a page link (`https://…/?algo=nginx&nodes=…`, or its query)."""
    def step(self, change: str) -> Cluster:
        """The cluster after one change in `simulate --step` syntax (`add:E*2`, `fail:B`, …;
        for Ceph over a CRUSH map with hosts, `add-host:HOST@PARENT=osd.N[*W][:CLASS]+…` and
        `remove-host:HOST`; for any Ceph pool, `pg_num:N`)."""
    def add(self, name: str, weight: float = 1.0) -> Cluster: ...
    def remove(self, name: str) -> Cluster: ...
    def fail(self, name: str) -> Cluster: ...
    def recover(self, name: str) -> Cluster: ...
    @overload
    def locate(self, keys: str) -> str | None: ...
    @overload
    def locate(self, keys: list[str | None] | tuple[str | None, ...]) -> list[str | None]: ...
    @overload
    def locate(self, keys: Any) -> pa.Array | pa.ChunkedArray:
        """Each key's owner: an Arrow column (pyarrow, Polars, DuckDB) gives a pyarrow string
        column of the same length (chunked when the keys were)."""
    def explain(self, key: str) -> str:
        """How the algorithm found `key`'s owner, in its own steps."""
    def moves(self, after: Cluster, keys: Any) -> pa.StructArray:
        """Row by row, where each key moves to `after`: a struct `(old_server, new_server)`, null where the
        key stays (SQL's `hashring_moves`)."""
    def moved(self, after: Cluster, keys: Any) -> pa.Table:
        """The migration list to `after`: `key, old_server, new_server` for the keys that move
        (the key column keeps its own name when it has one)."""
    def __eq__(self, other: object) -> bool:
        """Made with the same parameters and changed by the same steps."""
    def __hash__(self) -> int: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def servers(self) -> list[tuple[str, float, bool]]:
        """(name, weight, up) in list order."""
    @property
    def link(self) -> str:
        """The page's link query (`?algo=…`) for this cluster."""
    @property
    def notes(self) -> list[str]:
        """What the config said that the cluster leaves out (backup servers, replicas, …)."""
    @property
    def steps(self) -> list[str]: ...

def moved(before: Cluster, after: Cluster, keys: Any) -> pa.Table:
    """The migration list from `before` to `after` over `keys`: `key, old_server, new_server`."""

def algorithms() -> list[str]:
    """The algorithms' ids, in the registry's order."""
