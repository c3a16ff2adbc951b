"""The migration list of a million keys — through the package, DuckDB and Polars — equals
`hashring-lab simulate --moved` row for row: the same keys, in the same order, from and to
the same servers."""

from __future__ import annotations

import warnings

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import hashring_lab as hl
from conftest import REFERENCE, run

NGINX = """upstream cache {
    hash $arg_key consistent;
    server 10.0.0.1:80 weight=2;
    server 10.0.0.2:80;
    server 10.0.0.3:80;
    server 10.0.0.4:80 down;
    server 10.0.0.5:80;
    server 10.0.0.9:80 backup;
}
"""

COUNT = 1_000_000


@pytest.fixture(scope="module")
def keyspace(tmp_path_factory):
    """A million keys as a Parquet file and as the command line's key file."""
    where = tmp_path_factory.mktemp("keys")
    keys = pa.array([f"user:{i * 7919 % 1_000_003}" for i in range(COUNT)])
    pq.write_table(pa.table({"key": keys}), where / "keys.parquet")
    (where / "keys.txt").write_text("\n".join(keys.to_pylist()) + "\n")
    return where


def simulate_moved(keyspace, config: str, step: str, *flags: str) -> pa.Table:
    """`simulate --config … --keys @keys.txt --step … --moved`: the CLI's migration list."""
    (keyspace / "config.txt").write_text(config)
    out = keyspace / "moved.csv"
    done = run(
        "simulate", "--config", str(keyspace / "config.txt"), "--keys", f"@{keyspace / 'keys.txt'}",
        "--step", step, "--moved", str(out), *flags,
    )
    assert done.returncode == 0, done.stderr
    strings = pacsv.ConvertOptions(column_types={c: pa.string() for c in ("key", "from", "to")}, strings_can_be_null=False)
    table = pacsv.read_csv(out, convert_options=strings)
    # The command line's CSV says `from,to`; the package's columns are SQL-safe.
    return table.select(["key", "from", "to"]).rename_columns(["key", "old_server", "new_server"])


def rows(table) -> list[tuple]:
    if isinstance(table, pa.RecordBatchReader):
        table = table.read_all()
    return list(zip(*(table.column(c).to_pylist() for c in ("key", "old_server", "new_server"))))


@pytest.fixture(scope="module")
def nginx_case(keyspace):
    before = hl.Cluster.from_config(NGINX)
    after = before.add("10.0.0.6:80")
    want = simulate_moved(keyspace, NGINX, "add:10.0.0.6:80")
    assert 100_000 < want.num_rows < 250_000, want.num_rows
    return before, after, rows(want)


def test_the_package_lists_what_the_command_line_lists(keyspace, nginx_case):
    before, after, want = nginx_case
    keys = pq.read_table(keyspace / "keys.parquet").column("key")
    assert rows(hl.moved(before, after, keys)) == want
    assert before.notes and "10.0.0.9:80" in before.notes[0]


def duckdb_connection(native: bool):
    """A connection with the extension (hashring_lab.duckdb.connect), or a plain one, on
    which the package registers its Python functions instead, warning that it does."""
    import duckdb

    import hashring_lab.duckdb as hd

    if native:
        assert hd.EXTENSION is not None, "the wheel carries no DuckDB extension (make wheel)"
        return hd.connect()
    return duckdb.connect()


@pytest.mark.parametrize("native", [True, False], ids=["extension", "python-functions"])
def test_duckdb_lists_what_the_command_line_lists(keyspace, nginx_case, native):
    import hashring_lab.duckdb as hd

    before, after, want = nginx_case
    con = duckdb_connection(native)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        hd.register(con, clusters={"before": before, "after": after})
    assert [str(w.message)[:60] for w in said] == ([] if native else ["hashring_lab.duckdb: this connection does not load unsigned "])
    source = con.read_parquet(str(keyspace / "keys.parquet"))
    # DuckDB keeps the file's order (preserve_insertion_order, on by default).
    got = hd.moved(con, "before", "after", source).arrow()
    assert rows(got) == want
    # The same by config text and link, without names; a table by its name.
    con.execute(f"CREATE TABLE keys AS SELECT * FROM read_parquet('{keyspace / 'keys.parquet'}')")
    by_text = hd.moved(con, NGINX, after.link, "keys").arrow()
    assert rows(by_text) == want


def test_polars_lists_what_the_command_line_lists(keyspace, nginx_case):
    pl = pytest.importorskip("polars")
    import hashring_lab.polars as hp

    before, after, want = nginx_case
    got = hp.moved(pl.scan_parquet(keyspace / "keys.parquet"), before, after).collect()
    assert rows(got.to_arrow()) == want
    # As an expression beside other columns.
    frame = pl.read_parquet(keyspace / "keys.parquet").head(1000)
    placed = frame.with_columns(server=hp.locate("key", before))
    assert placed["server"].to_list() == before.locate(frame["key"].to_list())


@pytest.mark.parametrize(
    "config,step",
    [
        ("redis-cluster.txt", "fail:127.0.0.1:18382"),
        ("cassandra-ring.txt", "recover:10.0.1.4"),
    ],
)
def test_real_clusters_move_as_the_command_line_says(keyspace, config, step):
    prefix = {"redis-cluster.txt": "node ", "cassandra-ring.txt": "ring "}[config]
    lines = (REFERENCE / config).read_text().splitlines()
    text = "".join(line[len(prefix):] + "\n" for line in lines if line.startswith(prefix))
    want = simulate_moved(keyspace, text, step)
    before = hl.Cluster.from_config(text)
    keys = pq.read_table(keyspace / "keys.parquet").column("key")
    assert rows(hl.moved(before, before.step(step), keys)) == rows(want)


@pytest.mark.parametrize("native", [True, False], ids=["extension", "python-functions"])
def test_duckdb_takes_a_cluster_per_row(native):
    import hashring_lab.duckdb as hd

    a, b = hl.Cluster("ring", "A,B,C"), hl.Cluster("ketama", "x:1,y:1")
    con = duckdb_connection(native)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hd.register(con, clusters={"a": a, "b": b})
    got = con.sql(
        "SELECT hashring_locate(c, k) FROM (VALUES ('a', 'k1'), ('b', 'k1'), (NULL, 'k2'), ('a', NULL), "
        "('?algo=modn&nodes=P,Q', 'k3')) t(c, k)"
    ).fetchall()
    assert [g[0] for g in got] == [a.locate("k1"), b.locate("k1"), None, None, hl.Cluster("modn", "P,Q").locate("k3")]
    moves = con.sql(
        "SELECT hashring_moves(x, y, k) FROM (VALUES ('a', 'b', 'k1'), ('a', 'a', 'k1')) t(x, y, k)"
    ).fetchall()
    assert moves == [({"old_server": a.locate("k1"), "new_server": b.locate("k1")},), (None,)]


def test_a_stream_of_batches_is_read_a_batch_at_a_time(keyspace, nginx_case):
    """A stream — a Parquet file read batch by batch, a DuckDB relation — gives the same list
    as the whole column: the package reads it through the C stream interface a batch at a
    time and keeps only the moved rows. A one-column table or batch stands for its column."""
    before, after, want = nginx_case
    file = pq.ParquetFile(keyspace / "keys.parquet")
    reader = pa.RecordBatchReader.from_batches(
        file.schema_arrow, file.iter_batches(batch_size=65_536, columns=["key"])
    )
    assert rows(hl.moved(before, after, reader)) == want
    duckdb = pytest.importorskip("duckdb")
    relation = duckdb.connect().sql(f"SELECT key FROM read_parquet('{keyspace / 'keys.parquet'}')")
    assert rows(hl.moved(before, after, relation)) == want
    two = pa.table({"key": ["a"], "other": [1]})
    with pytest.raises(hl.KeyColumnError, match="2 columns; give the key column"):
        hl.moved(before, after, two)
