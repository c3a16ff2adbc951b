"""hashring_lab in DuckDB: SQL functions over a table's key column.

    >>> import hashring_lab as hl, hashring_lab.duckdb as hd
    >>> con = hd.connect()                       # DuckDB with the extension loaded
    >>> nginx = hl.Cluster.from_config(open("nginx.conf").read())
    >>> hd.register(con, clusters={"now": nginx, "next": nginx.add("10.0.0.6:80")})
    >>> con.sql("SELECT key, hashring_locate('now', key) AS server FROM 'keys.parquet'")
    >>> hd.moved(con, "now", "next", con.read_parquet("keys.parquet"))   # key, old_server, new_server

Three functions:

- ``hashring_locate(cluster, key) -> VARCHAR``: the server that owns ``key``;
- ``hashring_moves(before, after, key) -> STRUCT(old_server VARCHAR, new_server VARCHAR)``:
  where ``key`` moves, NULL when it stays — one call a row for the migration list;
- ``hashring_cluster(name, cluster[, step])``: names a cluster (with a change applied) in SQL.

A cluster is given by the name it was registered under, or as a system's config text or a
page link (``?algo=…``); a one-word name that was never registered is refused, naming the
registered ones. Keys are text, UTF-8 BLOBs or integers (placed as their decimal text, as the
command line reads them); a NULL key or cluster gives NULL.

The functions are the DuckDB extension built from the same engine (bindings/duckdb): native,
on DuckDB's own threads, usable from the ``duckdb`` command line too. The wheel carries it;
DuckDB loads it only on a connection that allows unsigned extensions, which :func:`connect`
opens. On any other connection :func:`register` registers Python functions of the same names
and types instead (DuckDB hands them Arrow vectors of 2,048 rows; they run on one core at a
time), and says so once with a warning.
"""

from __future__ import annotations

import functools
import pathlib
import uuid
import warnings

import pyarrow as pa
import pyarrow.compute as pc

from . import Cluster, ConfigError, ScenarioError
from . import cluster as _cluster

__all__ = ["connect", "register", "moved", "EXTENSION"]

#: The DuckDB extension the wheel carries (None when the package was built without it).
EXTENSION: "pathlib.Path | None" = next(iter(pathlib.Path(__file__).parent.glob("hashring_lab.duckdb_extension")), None)


def connect(database: str = ":memory:", config: "dict | None" = None, clusters: "dict | None" = None):
    """A DuckDB connection with the extension loaded (``allow_unsigned_extensions`` set: the
    extension is built here, not signed by DuckDB) and ``clusters`` registered."""
    import duckdb

    con = duckdb.connect(database, config={**(config or {}), "allow_unsigned_extensions": "true"})
    register(con, clusters)
    return con


def _load_extension(con) -> bool:
    """Loads the extension into ``con``'s database; False when it cannot be (no file, or a
    connection that refuses unsigned extensions)."""
    import duckdb

    if EXTENSION is None:
        return False
    try:
        con.execute(f"LOAD '{str(EXTENSION).replace(chr(39), chr(39) * 2)}'")
        return True
    except duckdb.Error as refused:
        why = (
            "this connection does not load unsigned extensions"
            if "allow_unsigned_extensions" in str(refused)
            else f"DuckDB did not load the extension ({str(refused)[:200]})"
        )
        warnings.warn(
            f"hashring_lab.duckdb: {why}; Python functions are registered instead, on one core — "
            "open the connection with hashring_lab.duckdb.connect() for the native ones",
            stacklevel=3,
        )
        return False


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
    """Gives the connection ``con`` the functions and names ``clusters`` for SQL: clusters made
    in Python (with their changes, e.g. ``{"before": c, "after": c.add("E")}``), or config
    texts and links; each is checked here, so a bad one is refused now, not at query time.
    With the extension (a connection from :func:`connect`), the names belong to the
    connection's database; registering a name again points it at the new cluster."""
    known = _Clusters(clusters or {})
    if _load_extension(con):
        for name, cluster in known.named.items():
            link, steps = cluster._origin()
            con.execute("SELECT hashring_cluster(?, ?)", [name, link]).fetchall()
            for step in steps:
                con.execute("SELECT hashring_cluster(?, ?, ?)", [name, name, step]).fetchall()
        return
    _register_python_functions(con, known)


def _register_python_functions(con, known: _Clusters) -> None:
    import duckdb

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
        duckdb.struct_type({"old_server": text, "new_server": text}),
        type="arrow",
        null_handling="special",
        side_effects=False,
    )


def _identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def moved(con, before: str, after: str, source, key: str = "key"):
    """The migration list from ``before`` to ``after`` (registered names, config texts or page
    links) over the ``key`` column of ``source`` — a DuckDB relation (``con.read_parquet(…)``,
    ``con.table(…)``, ``con.sql(…)``) or a table's name: a relation of the key column (under its
    own name), ``old_server`` and ``new_server`` for the keys that move, in the source's order.
    ``register`` (or :func:`connect`) must have run on ``con``."""
    relation = con.table(source) if isinstance(source, str) else source
    view = f"hashring_source_{uuid.uuid4().hex}"
    relation.create_view(view)
    column = _identifier(key)
    return con.sql(
        f"SELECT k AS {column}, m.old_server, m.new_server FROM ("
        f"SELECT {column}::VARCHAR AS k, hashring_moves($before, $after, {column}) AS m "
        f"FROM {_identifier(view)}) WHERE m IS NOT NULL",
        params={"before": before, "after": after},
    )
