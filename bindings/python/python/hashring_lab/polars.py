"""hashring_lab in Polars: an expression that places a column's keys.

    >>> import polars as pl, hashring_lab as hl, hashring_lab.polars as hp
    >>> nginx = hl.Cluster.from_config(open("nginx.conf").read())
    >>> pl.scan_parquet("keys.parquet").with_columns(server=hp.locate("key", nginx)).collect()

The column goes to the engine through Arrow (no Python object per key); integer keys are
placed as their decimal text; a null key gives a null server.
"""

from __future__ import annotations

import polars as pl

from . import Cluster

__all__ = ["locate", "moved"]


def locate(column: "str | pl.Expr", cluster: Cluster) -> pl.Expr:
    """The server that owns each key of ``column`` (a name or an expression)."""
    expr = pl.col(column) if isinstance(column, str) else column

    def owners(keys: pl.Series) -> pl.Series:
        return pl.Series(keys.name, cluster.locate(keys), dtype=pl.String)

    return expr.map_batches(owners, return_dtype=pl.String, is_elementwise=True)


def moved(frame: "pl.DataFrame | pl.LazyFrame", before: Cluster, after: Cluster, key: str = "key"):
    """The migration list from ``before`` to ``after`` over ``frame``'s ``key`` column:
    ``key, from, to`` for the keys that move, in the frame's order (null keys left out)."""
    return (
        frame.select(pl.col(key).cast(pl.String).alias("key"))
        .filter(pl.col("key").is_not_null())
        .with_columns(locate("key", before).alias("from"), locate("key", after).alias("to"))
        .filter(pl.col("from").ne_missing(pl.col("to")))
    )
