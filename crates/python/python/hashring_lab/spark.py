"""hashring_lab in Spark: the migration list of a whole keyspace, one Arrow batch at a time.

    >>> from pyspark.sql import SparkSession
    >>> import hashring_lab as hl, hashring_lab.spark as hs
    >>> spark = SparkSession.builder.master("local[2]").getOrCreate()
    >>> before = hl.Cluster.from_config(open("nginx.conf").read())
    >>> hs.moved(spark.read.parquet("keys/"), before, before.add("10.0.0.6:80")) \\
    ...     .write.parquet("moved/")

Placement is per key and stateless once a cluster is built: the two clusters travel to the
executors as their parameters (pickled, a few hundred bytes), each executor builds them once,
and ``mapInArrow`` hands it the keys as Arrow record batches. What scales with executors is
the per-key work; the build is done once per executor thread.
"""

from __future__ import annotations

from . import Cluster

__all__ = ["moved", "locate", "MOVED_SCHEMA"]

#: The migration list's columns.
MOVED_SCHEMA = "key string, `from` string, `to` string"


def moved(frame, before: Cluster, after: Cluster, key: str = "key"):
    """The migration list from ``before`` to ``after`` over ``frame``'s ``key`` column, as a
    Spark DataFrame of ``key, from, to`` (the keys that move; null keys left out)."""

    def batches(chunks):
        for chunk in chunks:
            table = before.moved(after, chunk.column(0))
            yield from table.to_batches()

    return frame.select(frame[key].cast("string").alias("key")).mapInArrow(batches, MOVED_SCHEMA)


def locate(frame, cluster: Cluster, key: str = "key", into: str = "server"):
    """``frame`` with a column ``into``: the server that owns each key."""
    import pyarrow as pa

    names = frame.columns
    position = names.index(key)
    schema = frame.schema.add(into, "string")

    def batches(chunks):
        for chunk in chunks:
            owners = cluster.locate(chunk.column(position))
            yield pa.RecordBatch.from_arrays(list(chunk.columns) + [owners], names=names + [into])

    return frame.mapInArrow(batches, schema)
