"""hashring_lab in DuckDB: SQL functions over a table's key column.

    >>> import duckdb, hashring_lab.duckdb
    >>> con = duckdb.connect()
    >>> hashring_lab.duckdb.register(con)
    >>> con.sql("SELECT key, hashring_locate($config, key) AS server FROM 'keys.parquet'",
    ...         params={"config": open("nginx.conf").read()})

``hashring_locate(cluster, key)`` takes the cluster by the name it was registered under
(``register(con, clusters={"before": c})``), or as a system's config text or a page link
(``?algo=…``), each distinct one built once and kept. Keys are VARCHAR (cast integers:
``key::VARCHAR``, which places them as their decimal text, as the command line does); a NULL
key or cluster gives NULL. DuckDB hands the function Arrow vectors: no Python object per key.
"""

from __future__ import annotations

import functools

import pyarrow as pa
import pyarrow.compute as pc

from . import Cluster
from . import cluster as _cluster

__all__ = ["register", "moved"]


@functools.lru_cache(maxsize=32)
def _cached(spec: str):
    return _cluster(spec)


def _locator(named: dict):
    def locate(specs: pa.Array, keys: pa.Array) -> pa.Array:
        return _locate(named, specs, keys)

    return locate


def _locate(named: dict, specs: pa.Array, keys: pa.Array) -> pa.Array:
    if isinstance(specs, pa.ChunkedArray):
        specs = specs.combine_chunks()
    if isinstance(keys, pa.ChunkedArray):
        keys = keys.combine_chunks()
    distinct = [s for s in pc.unique(specs).to_pylist() if s is not None]
    out = pa.nulls(len(keys), pa.string())
    for spec in distinct:
        found = named.get(spec)
        owners = (found if found is not None else _cached(spec)).locate(keys)
        out = pc.if_else(pc.equal(specs, spec), owners, out) if len(distinct) > 1 or specs.null_count else owners
    return out


def register(con, clusters: "dict[str, Cluster] | None" = None, name: str = "hashring_locate") -> None:
    """Registers ``name(cluster VARCHAR, key VARCHAR) -> VARCHAR`` on the connection ``con``:
    the server that owns ``key``. ``clusters`` names clusters made in Python (with their
    steps, e.g. ``{"before": c, "after": c.add("E")}``) for SQL to use by name."""
    import duckdb

    con.create_function(
        name,
        _locator(dict(clusters or {})),
        [duckdb.sqltypes.VARCHAR, duckdb.sqltypes.VARCHAR],
        duckdb.sqltypes.VARCHAR,
        type="arrow",
        null_handling="special",
        side_effects=False,
    )


def moved(con, before: str, after: str, source: str, key: str = "key", name: str = "hashring_locate"):
    """The migration list from ``before`` to ``after`` (registered names, config texts or page
    links) over the
    ``key`` column of ``source`` (a table name, or a file DuckDB reads such as
    ``'keys.parquet'``): a relation of ``key, from, to`` for the keys that move.
    ``register`` must have run on ``con``."""
    return con.sql(
        f'SELECT k AS "key", "from", "to" FROM ('
        f'SELECT "{key}"::VARCHAR AS k, {name}($before, "{key}"::VARCHAR) AS "from", '
        f'{name}($after, "{key}"::VARCHAR) AS "to" FROM {source}) '
        f'WHERE k IS NOT NULL AND "from" IS DISTINCT FROM "to"',
        params={"before": before, "after": after},
    )
