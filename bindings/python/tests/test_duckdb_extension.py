"""The DuckDB extension (bindings/duckdb, `make duckdb-extension`) in DuckDB itself: loaded
with LOAD into the Python module's DuckDB (2.0.1) and into the `duckdb` command line (1.5.6),
its functions place keys as the package does — every per-key algorithm, random scenarios —
and move them as the package's migration list says; keys of every type it takes; NULLs;
and the messages a query fails with."""

from __future__ import annotations

import os
import pathlib
import random
import subprocess

import duckdb
import pyarrow as pa
import pytest

import hashring_lab as hl
from conftest import ROOT, run
from test_agreement import PER_KEY, random_scenario

NGINX = """upstream backend {
    hash $request_uri consistent;
    server 10.0.0.1:80;
    server 10.0.0.2:80 weight=2;
    server 10.0.0.3:80;
}"""


def extension() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("HASHRING_LAB_DUCKDB_EXTENSION", ROOT / "target/duckdb/hashring_lab.duckdb_extension"))
    if not path.exists():
        pytest.fail(f"no DuckDB extension at {path}: build it with `make duckdb-extension`")
    return path


@pytest.fixture
def con():
    db = duckdb.connect(config={"allow_unsigned_extensions": "true", "threads": "2"})
    db.execute(f"LOAD '{extension()}'")
    yield db
    db.close()


def column(con, sql: str, *params) -> list:
    return [row[0] for row in con.execute(sql, list(params)).fetchall()]


@pytest.mark.parametrize("algo", PER_KEY)
def test_sql_places_and_moves_keys_as_the_package(con, algo):
    rng = random.Random(f"duckdb-{algo}")
    for _ in range(2):
        _, nodes, down, params, keys, step = random_scenario(algo, rng)
        try:
            before = hl.Cluster(algo, nodes, down=down, **params)
        except hl.ScenarioError as refused:
            # The link of the same parameters is refused in the same words.
            link = f"?algo={algo}&nodes={','.join(nodes)}"
            with pytest.raises(duckdb.Error) as raised:
                con.execute("SELECT hashring_locate(?, 'k')", [link]).fetchall()
            assert str(refused).split(":")[0] in str(raised.value)
            continue
        after = before.step(step)
        con.execute("CREATE OR REPLACE TABLE k AS SELECT * FROM unnest(?::VARCHAR[]) WITH ORDINALITY t(key, n)", [keys])
        placed = column(con, "SELECT hashring_locate(?, key) FROM k ORDER BY n", before.link)
        assert placed == before.locate(keys), algo
        # The change applied to the cluster, as the package applies it (a link of the
        # cluster after it could not say Anchor's or Dx's order of removals).
        said = column(con, "SELECT hashring_cluster('after', ?, ?)", before.link, step)
        assert said[0].startswith(f"after: {algo} over "), said
        moves = con.execute(
            "SELECT key, m.old_server, m.new_server FROM (SELECT n, key, hashring_moves(?, 'after', key) m FROM k) WHERE m IS NOT NULL ORDER BY n",
            [before.link],
        ).fetchall()
        expected = hl.moved(before, after, keys).to_pylist()
        assert moves == [(r["key"], r["old_server"], r["new_server"]) for r in expected], f"{algo} {step}"


def test_a_config_text_and_a_registered_name_are_the_same_cluster(con):
    nginx = hl.Cluster.from_config(NGINX)
    keys = [f"/item/{i}" for i in range(20_000)]
    con.execute("CREATE TABLE k AS SELECT '/item/' || range AS key, range AS n FROM range(20000)")
    by_text = column(con, "SELECT hashring_locate(?, key) FROM k ORDER BY n", NGINX)
    assert by_text == nginx.locate(keys)
    said = column(con, "SELECT hashring_cluster('now', ?)", NGINX)
    assert said == ["now: nginx over 3 servers"]
    assert column(con, "SELECT hashring_locate('now', key) FROM k ORDER BY n") == by_text
    # Registering a name again points it at the new cluster.
    bigger = nginx.add("10.0.0.4:80")
    con.execute("SELECT hashring_cluster('now', ?)", [bigger.link]).fetchall()
    assert column(con, "SELECT hashring_locate('now', key) FROM k ORDER BY n") == bigger.locate(keys)


def test_keys_of_every_type_are_placed_as_their_text(con):
    ring = "?algo=ketama&nodes=A,B,C,D"
    cluster = hl.Cluster.from_link(ring)
    numbers = [0, 1, 42, -7, 2**31, 2**63 - 1, -(2**63)]
    for kind in ("TINYINT", "INTEGER", "BIGINT"):
        fitting = [n for n in numbers if kind == "BIGINT" or -128 <= n < 128]
        got = column(con, f"SELECT hashring_locate(?, k::{kind}) FROM unnest(?::BIGINT[]) t(k)", ring, fitting)
        assert got == cluster.locate([str(n) for n in fitting]), kind
    big = [2**64 - 1, 2**63]
    assert column(con, "SELECT hashring_locate(?, k) FROM unnest(?::UBIGINT[]) t(k)", ring, big) == cluster.locate([str(n) for n in big])
    assert column(con, "SELECT hashring_locate(?, 'user:1'::BLOB)", ring) == [cluster.locate("user:1")]
    with pytest.raises(duckdb.Error, match="a BLOB key is not UTF-8 text"):
        con.execute("SELECT hashring_locate(?, '\\xFF'::BLOB)", [ring]).fetchall()


def test_nulls_give_null(con):
    ring = "?algo=ring&nodes=A,B"
    assert column(con, "SELECT hashring_locate(?, NULL::VARCHAR)", ring) == [None]
    assert column(con, "SELECT hashring_locate(NULL, 'k')") == [None]
    assert column(con, "SELECT hashring_moves(?, ?, NULL::VARCHAR)", ring, ring + ",C") == [None]
    # Every server down: no owner.
    assert column(con, "SELECT hashring_locate('?algo=ring&nodes=A,B&down=A,B', 'k')") == [None]


@pytest.mark.parametrize(
    "sql, says",
    [
        ("SELECT hashring_locate('nope', 'k')", "no cluster is registered as 'nope' (registered: "),
        ("SELECT hashring_locate('hello world', 'k')", "not a config hashring-lab reads"),
        ("SELECT hashring_locate('upstream x { server a; }', 'k')", "nginx config: there is no `hash KEY consistent;`"),
        ("SELECT hashring_cluster('next', '?algo=ring&nodes=A', 'remove:Z')", "step 'remove:Z'"),
        ("SELECT hashring_locate('?algo=ring&nodes=A&vnodes=1000000000000', 'k')", "vnodes"),
        ("SELECT hashring_locate('?algorithm=ring', 'k')", "the link's parameter 'algorithm' is not one the page knows"),
        ("SELECT hashring_locate('?algo=bounded&nodes=A,B', 'k')", "bounded places each key by the keys before it"),
        ("SELECT hashring_cluster('two words', '?algo=ring&nodes=A')", "a cluster's name is one word"),
    ],
)
def test_a_problem_fails_the_query_saying_what_is_wrong(con, sql, says):
    with pytest.raises(duckdb.Error) as raised:
        con.execute(sql).fetchall()
    assert says in str(raised.value)
    # The connection goes on working.
    assert column(con, "SELECT hashring_locate('?algo=ring&nodes=A', 'k')") == ["A"]


def test_many_keys_over_threads_are_placed_as_one_by_one(con):
    ring = "?algo=maglev&nodes=A,B,C,D,E"
    cluster = hl.Cluster.from_link(ring)
    counts = dict(con.execute("SELECT hashring_locate(?, 'key-' || range) s, count(*) FROM range(300000) GROUP BY s", [ring]).fetchall())
    keys = pa.array([f"key-{i}" for i in range(300_000)])
    expected = pa.table({"s": cluster.locate(keys)}).group_by("s").aggregate([("s", "count")]).to_pylist()
    assert counts == {r["s"]: r["s_count"] for r in expected}


def test_the_duckdb_command_line_loads_it():
    cli = ROOT / "target" / "py" / "bin" / "duckdb"
    assert cli.exists(), "the duckdb command line (duckdb-cli, requirements-test.txt) is not installed"
    sql = (
        f"LOAD '{extension()}'; "
        "SELECT hashring_cluster('now', '?algo=ketama&nodes=A,B,C'); "
        "SELECT count(*) FROM range(10000) WHERE hashring_moves('now', '?algo=ketama&nodes=A,B,C,D', range) IS NOT NULL;"
    )
    done = subprocess.run([str(cli), "-unsigned", "-csv", "-noheader", "-c", sql], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    before, after = hl.Cluster.from_link("?algo=ketama&nodes=A,B,C"), hl.Cluster.from_link("?algo=ketama&nodes=A,B,C,D")
    moved = hl.moved(before, after, [str(i) for i in range(10_000)]).num_rows
    assert lines == ["now: ketama over 3 servers", str(moved)]


def test_each_database_has_its_own_names():
    a, b = (duckdb.connect(config={"allow_unsigned_extensions": "true"}) for _ in range(2))
    for db in (a, b):
        db.execute(f"LOAD '{extension()}'")
    a.execute("SELECT hashring_cluster('c', '?algo=ring&nodes=A')").fetchall()
    b.execute("SELECT hashring_cluster('c', '?algo=ring&nodes=B')").fetchall()
    assert column(a, "SELECT hashring_locate('c', 'k')") == ["A"]
    assert column(b, "SELECT hashring_locate('c', 'k')") == ["B"]
    # A second connection to the same database shares them, as it shares the catalog.
    assert column(a.cursor(), "SELECT hashring_locate('c', 'k')") == ["A"]


def test_the_package_registers_changed_clusters_on_the_extension():
    """A Cluster after changes is registered as it was made plus its steps: Anchor's removal
    order, which no link states, is kept."""
    import hashring_lab.duckdb as hd

    start = hl.Cluster("anchor", [chr(ord("A") + i) for i in range(8)])
    after = start.remove("C").remove("F").add("I")
    con = hd.connect(clusters={"start": start, "after": after})
    keys = [f"key-{i}" for i in range(5000)]
    con.execute("CREATE TABLE k AS SELECT * FROM unnest(?::VARCHAR[]) WITH ORDINALITY t(key, n)", [keys])
    assert column(con, "SELECT hashring_locate('after', key) FROM k ORDER BY n") == after.locate(keys)
    got = hd.moved(con, "start", "after", con.sql("SELECT key FROM k ORDER BY n")).fetchall()
    assert got == [tuple(r.values()) for r in hl.moved(start, after, keys).to_pylist()]


def test_the_duckdb_command_line_lists_over_parquet_what_simulate_moved_lists(tmp_path):
    """`duckdb` over a Parquet file, registering a config's cluster and its change, equals the
    command line's `simulate --moved` row for row (its CSV says from,to)."""
    keys = [f"/item/{i * 7919 % 1_000_003}" for i in range(30_000)]
    pq_path = tmp_path / "keys.parquet"
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"key": keys}), pq_path)
    (tmp_path / "keys.txt").write_text("\n".join(keys) + "\n")
    (tmp_path / "nginx.conf").write_text(NGINX)
    done = run("simulate", "--config", str(tmp_path / "nginx.conf"), "--keys", f"@{tmp_path / 'keys.txt'}",
               "--step", "add:10.0.0.4:80", "--moved", str(tmp_path / "cli.csv"))
    assert done.returncode == 0, done.stderr
    want = [tuple(line.split(",")[1:4]) for line in (tmp_path / "cli.csv").read_text().splitlines()[1:]]
    sql = (
        f"LOAD '{extension()}'; "
        f"SELECT hashring_cluster('now', $${NGINX}$$); "
        "SELECT hashring_cluster('next', 'now', 'add:10.0.0.4:80'); "
        "COPY (SELECT key, m.old_server, m.new_server FROM (SELECT key, hashring_moves('now', 'next', key) AS m "
        f"FROM '{pq_path}') WHERE m IS NOT NULL) TO '{tmp_path / 'sql.csv'}' (HEADER false); "
        # The same list from the table macro, over the file by name.
        f"COPY (FROM hashring_lab.moved('now', 'next', '{pq_path}')) TO '{tmp_path / 'macro.csv'}' (HEADER false);"
    )
    cli = ROOT / "target" / "py" / "bin" / "duckdb"
    done = subprocess.run([str(cli), "-unsigned", "-c", sql], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    got = [tuple(line.split(",")) for line in (tmp_path / "sql.csv").read_text().splitlines()]
    assert got == want
    assert 5_000 < len(got) < 15_000
    assert [tuple(line.split(",")) for line in (tmp_path / "macro.csv").read_text().splitlines()] == want


def test_the_migration_list_as_a_table_reads_what_the_caller_sees(con, tmp_path):
    """`hashring_lab.moved(before, after, source)` over a TEMP table (which only the calling
    connection sees), a table, a view and a Parquet file equals the package's list, in the
    source's order; the key column keeps its name, integer keys come out as text."""
    before = hl.Cluster.from_link("?algo=ketama&nodes=cache-01:11211,cache-02:11211,cache-03:11211")
    after = before.add("cache-04:11211")
    con.execute("SELECT hashring_cluster('before', ?), hashring_cluster('after', 'before', 'add:cache-04:11211')", [before.link])
    keys = [f"user:{i * 7919 % 100_003}" for i in range(20_000)]
    want = [tuple(r.values()) for r in hl.moved(before, after, keys).to_pylist()]
    con.execute("CREATE TEMP TABLE temp_keys AS SELECT key FROM unnest(?::VARCHAR[]) WITH ORDINALITY t(key, n) ORDER BY n", [keys])
    con.execute("CREATE TABLE main_keys AS FROM temp_keys")
    con.execute("CREATE VIEW view_keys AS FROM main_keys")
    con.execute(f"COPY temp_keys TO '{tmp_path / 'keys.parquet'}'")
    for source in ("temp_keys", "main_keys", "view_keys", str(tmp_path / "keys.parquet")):
        got = con.execute("FROM hashring_lab.moved('before', 'after', ?)", [source]).fetchall()
        assert got == want, source
    con.execute("CREATE TABLE ids AS SELECT range AS user_id FROM range(3000)")
    ids = [str(i) for i in range(3000)]
    listed = con.execute("FROM hashring_lab.moved('before', 'after', 'ids', key := 'user_id')")
    assert [d[0] for d in listed.description] == ["user_id", "old_server", "new_server"]
    assert listed.fetchall() == [tuple(r.values()) for r in hl.moved(before, after, ids).to_pylist()]
    with pytest.raises(duckdb.BinderException, match=r'No matching columns found that match regex "\^key\$"'):
        con.execute("FROM hashring_lab.moved('before', 'after', 'ids')")
    with pytest.raises(duckdb.Error, match="no cluster is registered as 'nope'"):
        con.execute("FROM hashring_lab.moved('before', 'nope', 'main_keys')")


def test_a_database_named_hashring_lab_is_left_alone(tmp_path):
    """The macro's catalog is attached in memory; a database file of the same name keeps
    its catalog (nothing is written into it) and still has the scalar functions."""
    db = duckdb.connect(str(tmp_path / "hashring_lab.duckdb"), config={"allow_unsigned_extensions": "true"})
    db.execute(f"LOAD '{extension()}'")
    assert column(db, "SELECT hashring_locate('?algo=ring&nodes=A', 'k')") == ["A"]
    assert column(db, "SELECT count(*) FROM duckdb_functions() WHERE database_name = 'hashring_lab' AND function_name = 'moved'") == [0]
    db.close()
