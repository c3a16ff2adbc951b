"""The Polars plugin (`hashring_lab.polars.locate` / `moves`, compiled into the package's
library): in Polars' own engine, the plan names the plugin and no Python function; it places
and moves keys as the package does — every per-key algorithm, random scenarios, changes
applied as steps — over lazy Parquet scans and many chunks on Polars' threads; keys of every
type; nulls; and a key it cannot place fails the query in the package's words."""

from __future__ import annotations

import random

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import hashring_lab as hl
import hashring_lab.polars as hp
from test_agreement import PER_KEY, random_scenario


@pytest.mark.parametrize("algo", PER_KEY)
def test_polars_places_and_moves_keys_as_the_package(algo):
    rng = random.Random(f"polars-{algo}")
    for _ in range(2):
        _, nodes, down, params, keys, step = random_scenario(algo, rng)
        try:
            before = hl.Cluster(algo, nodes, down=down, **params)
        except hl.ScenarioError:
            continue
        after = before.step(step)
        frame = pl.DataFrame({"key": keys})
        got = frame.with_columns(server=hp.locate("key", before), move=hp.moves("key", before, after))
        assert got["server"].to_list() == before.locate(keys), algo
        expected = {r["key"]: (r["old_server"], r["new_server"]) for r in hl.moved(before, after, keys).to_pylist()}
        moves = {k: (m["old_server"], m["new_server"]) for k, m in zip(keys, got["move"].to_list()) if m is not None}
        assert moves == expected, f"{algo} {step}"
        listed = hp.moved(frame.lazy(), before, after).collect()
        assert listed.to_dicts() == hl.moved(before, after, keys).to_pylist(), f"{algo} {step}"


def test_a_lazy_parquet_plan_runs_the_plugin_not_python(tmp_path):
    keys = [f"user:{i * 7919 % 1000003}" for i in range(200_000)]
    pq.write_table(pa.table({"key": keys}), tmp_path / "keys.parquet", row_group_size=20_000)
    before = hl.Cluster.from_link("?algo=ketama&nodes=cache-01.prod.example.com:11211,cache-02.prod.example.com:11211,cache-03.prod.example.com:11211")
    after = before.add("cache-04.prod.example.com:11211")
    plan = pl.scan_parquet(tmp_path / "keys.parquet").with_columns(server=hp.locate("key", before))
    listed = hp.moved(pl.scan_parquet(tmp_path / "keys.parquet"), before, after)
    for lazy in (plan, listed):
        text = lazy.explain()
        assert "python_udf" not in text and "map_batches" not in text, text
        assert "_native" in text and ("locate()" in text or "moves()" in text), text
    # Many chunks on Polars' worker threads, in memory and streamed, give the package's answer.
    assert plan.collect()["server"].to_list() == before.locate(pa.array(keys)).to_pylist()
    assert plan.collect(engine="streaming")["server"].to_list() == before.locate(pa.array(keys)).to_pylist()
    assert listed.collect().to_arrow().to_pylist() == hl.moved(before, after, pa.array(keys)).to_pylist()


def test_keys_of_every_type_are_placed_as_their_text():
    cluster = hl.Cluster.from_link("?algo=ring&nodes=A,B,C&vnodes=50")
    text = ["0", "17", "4294967295", None]
    want = [cluster.locate(k) if k is not None else None for k in text]
    for dtype in (pl.Int64, pl.UInt64, pl.Int32, pl.UInt32):
        frame = pl.DataFrame({"key": [0, 17, 4294967295 if dtype not in (pl.Int32,) else 17, None]}, schema={"key": dtype})
        got = frame.select(hp.locate("key", cluster))["key"].to_list()
        expect = want if dtype is not pl.Int32 else [want[0], want[1], want[1], None]
        assert got == expect, dtype
    for keys in (pl.Series("key", text), pl.Series("key", text, dtype=pl.Categorical), pl.Series("key", [k.encode() if k else None for k in text])):
        assert pl.DataFrame(keys).select(hp.locate("key", cluster))["key"].to_list() == want, keys.dtype
    # 64-bit integers for the identity hash, as jump's users pass them.
    jump = hl.Cluster("jump", ["A", "B", "C"], hash="identity")
    big = pl.DataFrame({"key": [2**64 - 1, 2**40]}, schema={"key": pl.UInt64})
    assert big.select(hp.locate("key", jump))["key"].to_list() == [jump.locate(str(2**64 - 1)), jump.locate(str(2**40))]


def test_the_result_keeps_the_column_name_and_moves_is_a_struct():
    before = hl.Cluster.from_link("?algo=maglev&nodes=A,B,C")
    after = before.remove("B")
    frame = pl.DataFrame({"user": ["u1", "u2", "u3", None]})
    got = frame.select(hp.locate("user", before), hp.moves(pl.col("user"), before, after).alias("m"))
    assert got.schema == pl.Schema({"user": pl.String, "m": pl.Struct({"old_server": pl.String, "new_server": pl.String})})
    assert got["m"].to_list()[3] is None
    for key, owner, move in zip(frame["user"].to_list()[:3], got["user"].to_list(), got["m"].to_list()):
        assert (move is None) == (owner != "B"), (key, owner, move)
    listed = hp.moved(frame, before, after, key="user")
    assert listed.columns == ["user", "old_server", "new_server"]
    assert set(listed["old_server"]) <= {"B"}


def test_a_key_that_cannot_be_placed_fails_the_query_in_the_package_words():
    jump = hl.Cluster("jump", ["A", "B"], hash="identity")
    frame = pl.DataFrame({"key": ["1", "not-a-number"]})
    with pytest.raises(pl.exceptions.ComputeError, match=r"key 'not-a-number': the identity hash needs decimal integer keys in 0\.\.=18446744073709551615"):
        frame.select(hp.locate("key", jump))
    # A bad cluster is refused when the expression is made, not when the frame is collected.
    with pytest.raises(hl.ConfigError, match="the config ends where } was expected"):
        hp.locate("key", "upstream nothing {")
    with pytest.raises(hl.ScenarioError):
        hp.moves("key", "?algo=ring&nodes=A", "?algo=bounded&nodes=A,B")
