"""hashring_lab in Polars: an expression that places a column's keys.

    >>> import polars as pl, hashring_lab as hl, hashring_lab.polars as hp
    >>> nginx = open("nginx.conf").read()        # a config text, a page link or a Cluster
    >>> pl.scan_parquet("keys.parquet").with_columns(server=hp.locate("key", nginx)).collect()

The column goes to the engine through Arrow (no Python object per key); integer keys are
placed as their decimal text; a null key gives a null server.
"""

from __future__ import annotations

import polars as pl

from . import Cluster
from . import cluster as _cluster

__all__ = ["locate", "moved"]


def locate(column: "str | pl.Expr", cluster: "Cluster | str") -> pl.Expr:
    """The server that owns each key of ``column`` (a name or an expression); ``cluster`` is
    a :class:`Cluster`, a system's config text or a page link (read now: a bad one is
    refused here, not when the frame is collected)."""
    expr = pl.col(column) if isinstance(column, str) else column
    cluster = _cluster(cluster)

    def owners(keys: pl.Series) -> pl.Series:
        return pl.Series(keys.name, cluster.locate(keys), dtype=pl.String)

    return expr.map_batches(owners, return_dtype=pl.String, is_elementwise=True)


def moved(frame: "pl.DataFrame | pl.LazyFrame", before: "Cluster | str", after: "Cluster | str", key: str = "key"):
    """The migration list from ``before`` to ``after`` over ``frame``'s ``key`` column: the
    key column (its own name, as text), ``old_server``, ``new_server`` for the keys that
    move, in the frame's order (null keys left out)."""
    before, after = _cluster(before), _cluster(after)
    return (
        frame.select(pl.col(key).cast(pl.String))
        .filter(pl.col(key).is_not_null())
        .with_columns(locate(key, before).alias("old_server"), locate(key, after).alias("new_server"))
        .filter(pl.col("old_server").ne_missing(pl.col("new_server")))
    )
