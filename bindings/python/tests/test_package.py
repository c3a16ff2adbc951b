"""What a data engineer meets in the package's first hour: its version, clusters that compare
and hash by value, NumPy arrays taken as keys, Polars taking a cluster the way DuckDB does
(a config text or a link, not only a Cluster), and an install extra that is complete."""

from __future__ import annotations

import pickle
import re
import tomllib

import numpy as np
import polars as pl
import pytest

import hashring_lab as hl
import hashring_lab.polars as hp
from conftest import ROOT

NGINX = """upstream cache { hash $arg_key consistent;
  server 10.0.0.1:80; server 10.0.0.2:80 weight=2; server 10.0.0.3:80; }"""


def test_the_version_is_the_projects():
    project = tomllib.loads((ROOT / "bindings/python/pyproject.toml").read_text())["project"]
    assert hl.__version__ == project["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", hl.__version__)


def test_clusters_compare_and_hash_by_value():
    a = hl.Cluster("ketama", ["a:11211", "b:11211"])
    b = hl.Cluster("ketama", ["a:11211", "b:11211"])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.add("c:11211") == b.add("c:11211")
    assert a != a.add("c:11211")
    assert a != hl.Cluster("ketama", ["a:11211", "b:11211"], vnodes=40)
    assert a != "ketama"
    assert pickle.loads(pickle.dumps(a.fail("a:11211"))) == a.fail("a:11211")
    assert hl.Cluster.from_config(NGINX) == hl.Cluster.from_config(NGINX)


def test_numpy_arrays_are_keys():
    c = hl.Cluster("maglev", ["A", "B", "C"])
    words = [f"user:{i}" for i in range(1000)]
    assert c.locate(np.array(words)).to_pylist() == c.locate(words)
    numbers = np.arange(1000, dtype=np.int64) * 7919
    assert c.locate(numbers).to_pylist() == c.locate([str(n) for n in numbers])
    with pytest.raises(hl.KeyColumnError, match="keys are text"):
        c.locate(np.array([1.5, 2.5]))


def test_polars_takes_a_config_text_or_a_link_as_duckdb_does():
    frame = pl.DataFrame({"key": [f"k{i}" for i in range(500)]})
    nginx = hl.Cluster.from_config(NGINX)
    want = nginx.locate(frame["key"].to_list())
    for cluster in (NGINX, nginx.link, nginx):
        got = frame.lazy().with_columns(server=hp.locate("key", cluster)).collect()["server"].to_list()
        assert got == want
    with pytest.raises(hl.ConfigError):
        hp.locate("key", "not a config")


def test_the_spark_extra_installs_what_the_readme_command_needs():
    extras = tomllib.loads((ROOT / "bindings/python/pyproject.toml").read_text())["project"]["optional-dependencies"]
    pins = dict(
        line.split("==")
        for line in (ROOT / "bindings/python/requirements-spark.txt").read_text().splitlines()
        if line and not line.startswith("#")
    )
    spark = {re.split(r"[<>=]", d)[0]: d for d in extras["spark"]}
    # pyspark's mapInArrow imports pandas; the extra pins the versions the tests run on.
    assert set(spark) == {"pyspark", "pandas"}
    for name, pinned in pins.items():
        major = int(pinned.split(".")[0])
        bound = re.search(r"<(\d+)", spark[name])
        assert bound is None or major < int(bound.group(1)), f"{name} {pinned} is outside {spark[name]}"


def test_jump_takes_64_bit_keys_under_the_identity_hash():
    """As jump-consistent-hash's users pass them: `jump.hash(key, 10)` of its 3.6.0 for these
    keys (the engine's own test holds more)."""
    keys = [0, 5, 2**32 - 1, 2**32, 2**40 + 7, 2**63 - 1, 2**63, 2**64 - 1]
    buckets = [0, 4, 5, 2, 1, 8, 5, 9]
    c = hl.Cluster("jump", [f"b{i}" for i in range(10)], hash="identity")
    assert c.locate(keys) == [f"b{b}" for b in buckets]
    assert c.locate(np.array(keys, dtype=np.uint64)).to_pylist() == [f"b{b}" for b in buckets]
    with pytest.raises(hl.KeyColumnError, match=r"0\.\.=18446744073709551615, got '18446744073709551616'"):
        c.locate(2**64)
