"""Hostile and careless input through the package (issue 53): each is refused with a
``hashring_lab.Error`` that names the part that is wrong — never a Rust panic, never a
Python ``TypeError``/``UnicodeEncodeError`` from deep inside, and never quietly read as
something else (a ``repr``, the default cluster, two servers) — or handled as the real
system handles it."""

from __future__ import annotations

import duckdb
import polars as pl
import pyarrow as pa
import pytest

import hashring_lab as hl
import hashring_lab.duckdb as hd
from hashring_lab import _native

CLUSTER = hl.Cluster("ring", ["A", "B", "C"])


def test_a_stream_whose_batches_contradict_its_schema_is_refused_not_a_panic():
    reader = pa.RecordBatchReader.from_batches(
        pa.schema([("k", pa.string())]), iter([pa.record_batch({"k": pa.array([1, 2])})])
    )
    with pytest.raises(hl.KeyColumnError, match=r"batch 1 does not hold what the stream's type"):
        hl.moved(CLUSTER, CLUSTER.add("D"), reader)
    # The same with a good batch after a bad one's stream is placed.
    good = pa.RecordBatchReader.from_batches(
        pa.schema([("k", pa.string())]), iter([pa.record_batch({"k": pa.array(["x", "y"])})])
    )
    assert hl.moved(CLUSTER, CLUSTER.add("D"), good).num_rows >= 0


def test_string_columns_of_invalid_utf8_are_refused_as_binary_columns_are():
    raw = pa.array([b"\xff\xfe", b"ok"], pa.binary())
    with pytest.raises(hl.KeyColumnError, match="not UTF-8"):
        CLUSTER.locate(raw)
    with pytest.raises(hl.KeyColumnError, match="Invalid UTF8"):
        CLUSTER.locate(raw.view(pa.string()))
    with pytest.raises(hl.KeyColumnError, match="Invalid UTF8"):
        CLUSTER.locate(pa.chunked_array([raw.view(pa.string())]))


def test_python_keys_follow_the_arrow_columns_rules():
    # bytes are their UTF-8 text, ints their decimal text: as in an Arrow column.
    assert CLUSTER.locate([b"bb", 42]) == CLUSTER.locate(["bb", "42"])
    assert CLUSTER.locate([b"bb", 42]) == CLUSTER.locate(pa.array(["bb", "42"])).to_pylist()
    assert CLUSTER.locate(b"bb") == CLUSTER.locate("bb")
    # Not through repr: `b'bb'` is not the key "b'bb'", and an object is refused.
    assert CLUSTER.locate([b"bb"]) == CLUSTER.locate(["bb"])
    for bad, says in [
        ([object()], r"keys\[0\] is of type object"),
        (["a", 1.5], r"keys\[1\] is of type float"),
        ([True], r"keys\[0\] is of type bool"),
        ([b"\xff"], r"keys\[0\] is bytes that are not UTF-8"),
        (["\ud800"], r"keys\[0\] is a str that is not valid Unicode"),
        (3.5, r"the key is of type float"),
    ]:
        with pytest.raises(hl.KeyColumnError, match=says):
            CLUSTER.locate(bad)


def test_moves_takes_what_locate_takes():
    after = CLUSTER.add("D")
    keys = [f"k{i}" for i in range(50)]
    row_by_row = after_rows = CLUSTER.moves(after, keys)
    assert len(row_by_row) == 50
    moved = {r["key"]: (r["old_server"], r["new_server"]) for r in hl.moved(CLUSTER, after, keys).to_pylist()}
    for key, row in zip(keys, after_rows):
        assert (None if key not in moved else {"old_server": moved[key][0], "new_server": moved[key][1]}) == row
    assert CLUSTER.moves(after, keys[0]) == after_rows[0]
    chunked = CLUSTER.moves(after, pa.chunked_array([keys[:20], keys[20:]]))
    assert chunked.to_pylist() == after_rows


def test_names_are_text_and_one_name_is_one_server():
    for args, kwargs, says in [
        (("ring", ["a,b", "c"]), {}, r"nodes\[0\] 'a,b' contains ','"),
        (("ring", b"AB"), {}, "nodes: give a list of names, a dict of name → weight, or \"A,B\\*2\"; not bytes"),
        (("ring", [None]), {}, r"nodes\[0\] must be text \(str\), not NoneType"),
        (("ring", [5]), {}, r"nodes\[0\] must be text \(str\), not int"),
        (("ring", {"a*2": 1}), {}, r"a server's name 'a\*2' contains '\*'"),
        (("ring", {"a": "x"}), {}, r"the weight of 'a' must be a number, not str"),
        (("ring", "A,B"), {"down": 5}, r"^down: give a list of names"),
        (("ring", ["\ud800"]), {}, r"nodes\[0\] is not valid Unicode text"),
        ((5, "A,B"), {}, r"algo must be text \(str\), not int"),
        (("ring", "A,B"), {"vnodes": [1]}, r"vnodes must be a number or text, not list"),
        # Out of range is said as out of range, with the number as written (issue 50).
        (("ring", "A,B"), {"vnodes": 10**12}, r"^vnodes '1000000000000' must be a whole number from 1 to \d"),
        (("ring", {"a": -5.0, "b": 1}), {}, r"weight '-5(\.0)?' must be above 0"),
        (("ring", {"a": 1e30, "b": 1}), {}, r"weight '1e\+?30' must be above 0"),
    ]:
        with pytest.raises(hl.ScenarioError, match=says):
            hl.Cluster(*args, **kwargs)
    with pytest.raises(hl.ScenarioError, match=r"the config must be text \(str\), not int"):
        hl.Cluster.from_config(5)
    with pytest.raises(hl.ScenarioError, match="the server's name is not valid Unicode"):
        CLUSTER.add("\ud800")
    with pytest.raises(hl.ScenarioError, match=r"the server's name must be text \(str\), not int"):
        CLUSTER.remove(3)
    # A list may still give a weight, as the page's text does.
    assert hl.Cluster("ring", ["A", "B*2"]).servers == [("A", 1.0, True), ("B", 2.0, True)]


def test_a_link_is_a_page_link_or_refused():
    for text, says in [
        ("not a link at all", "is not a page link"),
        ("javascript:alert(1)", "is not a page link"),
        ("", "is not a page link"),
        ("?algorithm=nginx&node=x:1", "the link's parameter 'algorithm' is not one the page knows"),
        ("https://example.org/?algo=ring&nodez=A", "'nodez'"),
    ]:
        with pytest.raises(hl.ScenarioError, match=says):
            hl.Cluster.from_link(text)
    # The page's own parameters (language, tour, keys…) are the page's: accepted, not the cluster's.
    linked = hl.Cluster.from_link("https://x.example/lab/?algo=nginx&nodes=x:1,y:2&lang=zh-CN&tour=ring&keys=0..5#top")
    assert linked.algorithm == "nginx" and [s[0] for s in linked.servers] == ["x:1", "y:2"]
    assert hl.Cluster.from_link("algo=jump&nodes=A,B").algorithm == "jump"
    assert hl.Cluster.from_link("https://x.example/lab/").algorithm == "ring"


def test_a_long_name_is_quoted_short():
    for change in (CLUSTER.add, CLUSTER.remove, CLUSTER.fail, lambda n: CLUSTER.step("add:" + n)):
        with pytest.raises(hl.Error) as raised:
            change("x" * 1_000_000)
        assert len(str(raised.value)) < 300, len(str(raised.value))


def test_a_chain_of_changes_applies_each_change_once():
    cluster = hl.Cluster("ring", ["A", "B"])
    before = _native._changes_applied()
    for i in range(300):
        cluster = cluster.add(f"n{i}")
    # Each add applies its one change to a copy (300), not every change so far (45,150).
    assert _native._changes_applied() - before == 300
    assert len(cluster.servers) == 302
    assert cluster.steps[-1] == "add:n299"
    # A rebuilt cluster (a pickle's) replays its steps once, and places as the chain does.
    import pickle

    again = pickle.loads(pickle.dumps(cluster))
    assert again.locate([f"k{i}" for i in range(200)]) == cluster.locate([f"k{i}" for i in range(200)])


def test_ceph_pg_num_is_cephs_and_maglev_table_is_maglevs():
    both = hl.Cluster("ceph", "osd.0,osd.1,osd.2", pg_num=12, table=251)
    assert "pg_num=12" in both.link
    with pytest.raises(hl.ScenarioError, match="Maglev's table size '0'"):
        hl.Cluster("maglev", "A,B", table=0)
    with pytest.raises(hl.ScenarioError, match="pg_num '0' must be a whole number"):
        hl.Cluster("ceph", "osd.0", pg_num=0)
    # One lookup in a pool of a million groups over a thousand OSDs places one group.
    big = hl.Cluster("ceph", "osd.{i}:0..1001", pg_num=1_000_003)
    assert big.locate("k1") == "osd.499"


def test_duckdb_names_the_unknown_cluster_and_takes_integer_keys():
    con = duckdb.connect()
    hd.register(con, clusters={"now": CLUSTER, "next": CLUSTER.add("D")})
    with pytest.raises(duckdb.Error, match=r"no cluster is registered as 'y' \(registered: 'now', 'next'\)"):
        con.sql("SELECT hashring_locate('y', 'k')").fetchall()
    # Integers are placed as their decimal text, as the README says.
    ints = con.sql("SELECT hashring_locate('now', i) FROM range(20) t(i) ORDER BY i").fetchall()
    texts = con.sql("SELECT hashring_locate('now', i::VARCHAR) FROM range(20) t(i) ORDER BY i").fetchall()
    assert ints == texts
    with pytest.raises(duckdb.Error, match="KeyColumnError"):
        con.sql("SELECT hashring_locate('now', 1.5::DOUBLE)").fetchall()
    # A cluster registered as text is read at registration, and its problem said there.
    with pytest.raises(hl.ConfigError):
        hd.register(con, clusters={"y": "text"})
    with pytest.raises(hl.ScenarioError, match=r"clusters\['y'\] must be a Cluster"):
        hd.register(con, clusters={"y": 5})
    hd.register(con, clusters={"linked": "?algo=ring&nodes=A,B,C"})
    assert con.sql("SELECT hashring_locate('linked', 'k1')").fetchall() == [(CLUSTER.locate("k1"),)]


def test_polars_null_and_string_series():
    assert CLUSTER.locate(pl.Series("k", [None, None])).to_pylist() == [None, None]
    assert CLUSTER.locate(pl.Series("k", ["a", None])).to_pylist() == [CLUSTER.locate("a"), None]
