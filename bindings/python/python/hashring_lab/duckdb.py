"""hashring_lab in DuckDB: SQL functions over a table's key column.

    >>> import duckdb, hashring_lab as hl, hashring_lab.duckdb as hd
    >>> con = duckdb.connect()
    >>> nginx = hl.Cluster.from_config(open("nginx.conf").read())
    >>> hd.register(con, clusters={"now": nginx, "next": nginx.add("10.0.0.6:80")})
    >>> con.sql("SELECT key, hashring_locate('now', key) AS server FROM 'keys.parquet'")
    >>> hd.moved(con, "now", "next", "'keys.parquet'")        # key, from, to

Two functions:

- ``hashring_locate(cluster, key) -> VARCHAR``: the server that owns ``key``;
- ``hashring_moves(before, after, key) -> STRUCT(from VARCHAR, to VARCHAR)``: where ``key``
  moves, NULL when it stays — one call a row for the migration list.

A cluster is given by the name it was registered under, or as a system's config text or a
page link (``?algo=…``), each distinct one built once and kept; a name that is none of
these is refused, naming it and the registered ones. Keys are text, UTF-8 BLOBs or integers
(placed as their decimal text, as the command line reads them); a NULL key or cluster gives
NULL. DuckDB hands the functions Arrow vectors of 2,048 rows: no
Python object per key, and the placement runs with the interpreter's lock released.
"""

from __future__ import annotations

import functools

import pyarrow as pa
import pyarrow.compute as pc

from . import Cluster, ConfigError, ScenarioError
from . import cluster as _cluster

__all__ = ["register", "moved"]


@functools.lru_cache(maxsize=32)
def _cached(spec: str) -> Cluster:
    return _cluster(spec)


def _plain(array):
    return array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array


class _Clusters:
    """The clusters SQL names: registered ones first, else config texts and links."""

    def __init__(self, named: dict):
        self.named = {}
        for name, value in dict(named).items():
            if not isinstance(name, str):
                raise ScenarioError(f"clusters: a cluster's name must be text (str), not {type(name).__name__}")
            if isinstance(value, str):
                value = _cluster(value)  # a config text or a link: its problem is said now
            if not isinstance(value, Cluster):
                raise ScenarioError(
                    f"clusters[{name[:40]!r}] must be a Cluster, a config text or a page link, not {type(value).__name__}"
                )
            self.named[name] = value

    def get(self, spec: str) -> Cluster:
        if not isinstance(spec, str):
            raise ScenarioError(
                f"a cluster in SQL is a registered name, a config text or a page link (VARCHAR), not {type(spec).__name__}"
            )
        found = self.named.get(spec)
        if found is not None:
            return found
        try:
            return _cached(spec)
        except ConfigError:
            # One word that is no config: a cluster's name that was never registered.
            if "\n" not in spec and " " not in spec.strip() and "{" not in spec:
                registered = ", ".join(repr(n[:40]) for n in self.named) or "none"
                raise ScenarioError(
                    f"no cluster is registered as {spec[:60]!r} (registered: {registered}); "
                    "a cluster is a registered name, a config text or a page link"
                ) from None
            raise

    def by_rows(self, specs: list, keys, each):
        """`each(clusters…, keys)` over the rows that share their clusters; None rows stay null."""
        specs = [_plain(s) for s in specs]
        keys = _plain(keys)
        uniform = [s.null_count == 0 and len(pc.unique(s)) == 1 for s in specs]
        if all(uniform) and len(keys):
            return each(*(self.get(s[0].as_py()) for s in specs), keys)
        groups: dict[tuple, list[int]] = {}
        for row, combo in enumerate(zip(*(s.to_pylist() for s in specs))):
            if None not in combo:
                groups.setdefault(combo, []).append(row)
        out = None
        for combo, rows in groups.items():
            picked = each(*(self.get(c) for c in combo), keys.take(pa.array(rows)))
            out = out or [None] * len(keys)
            for row, value in zip(rows, picked.to_pylist()):
                out[row] = value
        kind = each(*(self.get(c) for c in next(iter(groups))), keys.slice(0, 0)).type if groups else pa.string()
        return pa.array(out or [None] * len(keys), kind)


def register(con, clusters: "dict[str, Cluster] | None" = None) -> None:
    """Registers ``hashring_locate`` and ``hashring_moves`` on the connection ``con`` (again:
    replaces them). ``clusters`` names clusters made in Python (with their changes, e.g.
    ``{"before": c, "after": c.add("E")}``), or config texts and links, for SQL to use by
    name; each is checked here, so a bad one is refused now, not at query time."""
    import duckdb

    known = _Clusters(clusters or {})
    # Registering again replaces the functions (with the new set of clusters).
    for name in ("hashring_locate", "hashring_moves"):
        try:
            con.remove_function(name)
        except (duckdb.InvalidInputException, duckdb.CatalogException):
            pass
    text = duckdb.sqltypes.VARCHAR
    # Parameters of any type (DuckDB's Python API has no ANY to name one parameter by): the
    # package places text, UTF-8 BLOBs and integer keys and refuses the rest with
    # KeyColumnError; a cluster that is not text is refused by name. Typed VARCHAR, DuckDB
    # refused integer keys at bind time.
    con.create_function(
        "hashring_locate",
        lambda specs, keys: known.by_rows([specs], keys, lambda c, k: c.locate(k)),
        None,
        text,
        type="arrow",
        null_handling="special",
        side_effects=False,
    )
    con.create_function(
        "hashring_moves",
        lambda before, after, keys: known.by_rows([before, after], keys, lambda b, a, k: b.moves(a, k)),
        None,
        duckdb.struct_type({"from": text, "to": text}),
        type="arrow",
        null_handling="special",
        side_effects=False,
    )


def moved(con, before: str, after: str, source: str, key: str = "key"):
    """The migration list from ``before`` to ``after`` (registered names, config texts or page
    links) over the ``key`` column of ``source`` (a table name, or a file DuckDB reads such as
    ``'keys.parquet'``): a relation of ``key, from, to`` for the keys that move, in the
    source's order. ``register`` must have run on ``con``."""
    column = '"' + key.replace('"', '""') + '"'
    return con.sql(
        f'SELECT k AS "key", m."from" AS "from", m."to" AS "to" FROM ('
        f"SELECT {column}::VARCHAR AS k, hashring_moves($before, $after, {column}::VARCHAR) AS m "
        f"FROM {source}) WHERE m IS NOT NULL",
        params={"before": before, "after": after},
    )
