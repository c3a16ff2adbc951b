"""A Spark job on Spark's own local mode (local[2]): the migration list of 200,000 keys read
from Parquet, written as Parquet, equals `hashring-lab simulate --moved` — the clusters
travel to the executors pickled, as their parameters and steps."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import hashring_lab as hl
from conftest import REFERENCE, run

pyspark = pytest.importorskip("pyspark", reason="pyspark is installed by `make test-spark`")

COUNT = 200_000


@pytest.fixture(scope="module")
def spark():
    import os
    import sys

    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("hashring-lab tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()


def cli_moved(tmp_path, config_text: str, step: str, keys: list[str]) -> list[tuple]:
    (tmp_path / "config.txt").write_text(config_text)
    (tmp_path / "keys.txt").write_text("\n".join(keys) + "\n")
    out = tmp_path / "moved.csv"
    done = run("simulate", "--config", str(tmp_path / "config.txt"), "--keys", f"@{tmp_path / 'keys.txt'}",
               "--step", step, "--moved", str(out))
    assert done.returncode == 0, done.stderr
    strings = pacsv.ConvertOptions(column_types={c: pa.string() for c in ("key", "from", "to")}, strings_can_be_null=False)
    t = pacsv.read_csv(out, convert_options=strings)
    return list(zip(*(t.column(c).to_pylist() for c in ("key", "from", "to"))))


def test_a_spark_job_lists_what_the_command_line_lists(spark, tmp_path):
    text = "".join(l[5:] + "\n" for l in (REFERENCE / "redis-cluster.txt").read_text().splitlines() if l.startswith("node "))
    keys = [f"session:{i * 104729 % 9_999_991}" for i in range(COUNT)]
    pq.write_table(pa.table({"key": keys}), tmp_path / "keys.parquet", row_group_size=25_000)
    want = cli_moved(tmp_path, text, "add:127.0.0.1:18385", keys)
    assert len(want) > 10_000

    from hashring_lab.spark import main

    assert main([str(tmp_path / "keys.parquet"), str(tmp_path / "moved"), "--config", str(tmp_path / "config.txt"),
                 "--step", "add:127.0.0.1:18385"]) == 0
    got = pq.read_table(tmp_path / "moved")
    rows = list(zip(*(got.column(c).to_pylist() for c in ("key", "old_server", "new_server"))))
    # Spark writes a file per partition: the same rows, each partition in the keys' order.
    assert sorted(rows) == sorted(want)
    assert len(rows) == len(want)


def test_locate_adds_a_column_on_the_executors(spark):
    from hashring_lab.spark import locate

    cluster = hl.Cluster("ketama", "10.0.0.1:11211,10.0.0.2:11211*2,10.0.0.3:11211*3")
    frame = spark.createDataFrame([(f"key-{i}", i) for i in range(5000)], "key string, n long").repartition(3)
    placed = {r["key"]: r["server"] for r in locate(frame, cluster).collect()}
    keys = [f"key-{i}" for i in range(5000)]
    assert [placed[k] for k in keys] == cluster.locate(keys)
