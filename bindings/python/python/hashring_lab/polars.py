"""hashring_lab in Polars: expressions that place a column's keys, run by Polars' engine.

    >>> import polars as pl, hashring_lab as hl, hashring_lab.polars as hp
    >>> nginx = open("nginx.conf").read()        # a config text, a page link or a Cluster
    >>> pl.scan_parquet("keys.parquet").with_columns(server=hp.locate("key", nginx)).collect()

``locate`` and ``moves`` are a Polars plugin (the package's own compiled library): Polars
calls it on its worker threads with each chunk of the column as Arrow, and the plan names
the plugin, not a Python function. Integer keys are placed as their decimal text; a null
key gives a null.
"""

from __future__ import annotations

import polars as pl
from polars.plugins import register_plugin_function

from . import Cluster, _native
from . import cluster as _cluster

__all__ = ["locate", "moves", "moved"]


def _plugin(function: str, column: "str | pl.Expr", clusters: "list[Cluster | str]") -> pl.Expr:
    expr = pl.col(column) if isinstance(column, str) else column
    # Each cluster goes to the plugin as its page link and the steps applied since (read
    # now: a bad one is refused here, not when the frame is collected).
    origins = [_cluster(c)._origin() for c in clusters]
    return register_plugin_function(
        plugin_path=_native.__file__,
        function_name=function,
        args=[expr],
        kwargs={"clusters": origins},
        is_elementwise=True,
    )


def locate(column: "str | pl.Expr", cluster: "Cluster | str") -> pl.Expr:
    """The server that owns each key of ``column`` (a name or an expression); ``cluster`` is
    a :class:`Cluster`, a system's config text or a page link. The result keeps the
    column's name: give it another with ``alias`` or a keyword of ``with_columns``."""
    return _plugin("locate", column, [cluster])


def moves(column: "str | pl.Expr", before: "Cluster | str", after: "Cluster | str") -> pl.Expr:
    """Where each key of ``column`` moves from ``before`` to ``after``: a struct of
    ``old_server`` and ``new_server`` for a key whose owner changes, null for one that stays
    (and for a null key)."""
    return _plugin("moves", column, [before, after])


def moved(frame: "pl.DataFrame | pl.LazyFrame", before: "Cluster | str", after: "Cluster | str", key: str = "key"):
    """The migration list from ``before`` to ``after`` over ``frame``'s ``key`` column: the
    key column (its own name, as text), ``old_server``, ``new_server`` for the keys that
    move, in the frame's order (null keys left out)."""
    move = "__hashring_lab_move"
    return (
        frame.select(pl.col(key).cast(pl.String), moves(key, before, after).alias(move))
        .filter(pl.col(move).is_not_null())
        .select(
            pl.col(key),
            pl.col(move).struct.field("old_server"),
            pl.col(move).struct.field("new_server"),
        )
    )
