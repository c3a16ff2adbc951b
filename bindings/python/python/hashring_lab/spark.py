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

#: The migration list's columns, for a key column named ``key``.
MOVED_SCHEMA = "key string, old_server string, new_server string"


def moved(frame, before: Cluster, after: Cluster, key: str = "key"):
    """The migration list from ``before`` to ``after`` over ``frame``'s ``key`` column, as a
    Spark DataFrame of the key column (its own name, as a string), ``old_server`` and
    ``new_server`` (the keys that move; null keys left out)."""
    names = [key, "old_server", "new_server"]

    def batches(chunks):
        for chunk in chunks:
            table = before.moved(after, chunk.column(0)).rename_columns(names)
            yield from table.to_batches()

    schema = f"`{key.replace('`', '``')}` string, old_server string, new_server string"
    return frame.select(frame[key].cast("string").alias(key)).mapInArrow(batches, schema)


def locate(frame, cluster: Cluster, key: str = "key", into: str = "server"):
    """``frame`` with a column ``into``: the server that owns each key."""
    import pyarrow as pa
    from pyspark.sql.types import StringType, StructField, StructType

    names = frame.columns
    position = names.index(key)
    schema = StructType([*frame.schema.fields, StructField(into, StringType(), True)])

    def batches(chunks):
        for chunk in chunks:
            owners = cluster.locate(chunk.column(position))
            yield pa.RecordBatch.from_arrays(list(chunk.columns) + [owners], names=names + [into])

    return frame.mapInArrow(batches, schema)


def main(argv: "list[str] | None" = None) -> int:
    """``python -m hashring_lab.spark KEYS OUT --config FILE (--step STEP … | --after FILE)``:
    reads a Parquet keyspace (its ``--key`` column), writes the migration list as Parquet."""
    import argparse

    from . import Error

    parser = argparse.ArgumentParser(
        prog="python -m hashring_lab.spark",
        description="The migration list of a Parquet keyspace, as a Spark job (mapInArrow).",
    )
    parser.add_argument("keys", help="Parquet file or folder of keys")
    parser.add_argument("out", help="folder to write the migration list to (Parquet)")
    parser.add_argument("--config", required=True, help="the cluster now: a system's config file, or a page link")
    parser.add_argument("--step", action="append", default=[], help="a change, as `hashring-lab simulate --step` takes it (repeat for more)")
    parser.add_argument("--after", help="the cluster after: a second config file (instead of --step)")
    parser.add_argument("--key", default="key", help="the key column (default: key)")
    parser.add_argument("--master", default=None, help="Spark master (default: the session's, e.g. local[2] when none)")
    args = parser.parse_args(argv)
    if bool(args.step) == bool(args.after):
        parser.error("give --step (one or more) or --after, not both")

    import os
    import sys

    from pyspark.sql import SparkSession

    from . import cluster as _cluster

    # Local executors run this interpreter (where the package is), unless told otherwise.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    def read(spec: str) -> Cluster:
        text = spec if spec.startswith(("?", "http://", "https://")) else open(spec, encoding="utf-8").read()
        return _cluster(text)

    try:
        before = read(args.config)
        after = read(args.after) if args.after else before
        for step in args.step:
            after = after.step(step)
    except (Error, OSError) as problem:
        parser.exit(2, f"{parser.prog}: {problem}\n")
    ours = SparkSession.getActiveSession() is None
    builder = SparkSession.builder.appName("hashring-lab migration list")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    moved(spark.read.parquet(args.keys), before, after, key=args.key).write.mode("overwrite").parquet(args.out)
    if ours:
        spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
