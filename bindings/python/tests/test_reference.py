"""The package places every key of the committed real-system vectors where the real system
put it (the same files the Rust tests replay): nginx, HAProxy (servers and whole configs),
libmemcached's ketama, twemproxy, Redis Cluster (CLUSTER NODES and CLUSTER SHARDS), Cassandra
(`nodetool ring`, before and after a node joins) and Ceph (object → PG → OSD, and a CRUSH map
read as a config). Keys go through Arrow, as a column would, through the DuckDB extension,
as SQL would, and through the Polars plugin, as a lazy frame would."""

from __future__ import annotations

import functools

import pyarrow as pa
import pytest

import hashring_lab as hl
from conftest import REFERENCE, vectors


def scenarios(lines: list[str]):
    """`scenario …` headers, each with its `key server` rows."""
    cases = []
    for line in lines:
        words = line.split(" ")
        if words[0] == "scenario":
            cases.append((words[1:], [], []))
        else:
            cases[-1][1].append(words[0])
            cases[-1][2].append(words[1])
    return cases


@functools.cache
def duckdb_with_the_extension():
    import hashring_lab.duckdb as hd

    return hd.connect()


def check(cluster: hl.Cluster, keys: list[str], want: list[str]) -> int:
    """The package and, given the same cluster, the DuckDB extension and the Polars plugin
    place every key as the real system did."""
    import hashring_lab.duckdb as hd
    import hashring_lab.polars as hp
    import polars as pl

    got = cluster.locate(pa.array(keys)).to_pylist()
    wrong = [(k, g, w) for k, g, w in zip(keys, got, want) if g != w]
    assert not wrong, f"{len(wrong)} of {len(keys)} differ, e.g. {wrong[:3]}"
    con = duckdb_with_the_extension()
    hd.register(con, clusters={"reference": cluster})
    sql = con.execute(
        "SELECT hashring_locate('reference', k) FROM unnest(?::VARCHAR[]) WITH ORDINALITY t(k, n) ORDER BY n", [keys]
    ).fetchall()
    wrong = [(k, g[0], w) for k, g, w in zip(keys, sql, want) if g[0] != w]
    assert not wrong, f"in DuckDB, {len(wrong)} of {len(keys)} differ, e.g. {wrong[:3]}"
    placed = pl.LazyFrame({"key": keys}).select(hp.locate("key", cluster)).collect()["key"].to_list()
    wrong = [(k, g, w) for k, g, w in zip(keys, placed, want) if g != w]
    assert not wrong, f"in Polars, {len(wrong)} of {len(keys)} differ, e.g. {wrong[:3]}"
    return len(keys)


@pytest.mark.parametrize("system,file,count", [("nginx", "nginx.txt", 4), ("haproxy", "haproxy.txt", 5)])
def test_proxies_with_down_servers(system, file, count):
    cases = scenarios(vectors(file))
    assert len(cases) == count
    checked = 0
    for words, keys, want in cases:
        down = words[2] if len(words) > 2 else ""
        checked += check(hl.Cluster(system, words[1], down=down), keys, want)
    assert checked > 8_000


def test_libmemcached_ketama():
    cases = scenarios(vectors("ketama.txt"))
    assert len(cases) == 5
    for words, keys, want in cases:
        check(hl.Cluster("ketama", words[1]), keys, want)


def test_twemproxy():
    cases = scenarios(vectors("twemproxy.txt"))
    assert len(cases) == 5
    for words, keys, want in cases:
        algo = "ketama" if words[1] == "md5" else "twemproxy"
        check(hl.Cluster(algo, words[2]), keys, want)


def test_haproxy_configs_as_written():
    cases = []
    for line in vectors("haproxy-configs.txt"):
        if line.startswith("config "):
            cases.append(([], [], []))
        elif line.startswith("| "):
            cases[-1][0].append(line[2:])
        else:
            key, server = line.split(" ", 1)
            cases[-1][1].append(key)
            cases[-1][2].append(server)
    assert len(cases) == 7
    for config, keys, want in cases:
        check(hl.Cluster.from_config("\n".join(config) + "\n"), keys, want)


@pytest.mark.parametrize("section", ["node ", "shards ", "shards-raw "])
def test_redis_cluster_from_its_own_output(section):
    lines = vectors("redis-cluster.txt")
    text = "".join(line[len(section):] + "\n" for line in lines if line.startswith(section))
    rows = [line.split(" ") for line in lines if not line.startswith(("node ", "shards"))]
    cluster = hl.Cluster.from_config(text)
    assert any("slot 100 migrating" in n for n in cluster.notes) or section != "node "
    assert check(cluster, [r[0] for r in rows], [r[1] for r in rows]) == 2004


def test_cassandra_before_and_after_a_node_joins():
    lines = (REFERENCE / "cassandra-ring.txt").read_text().splitlines()
    ring = "".join(line[5:] + "\n" for line in lines if line.startswith("ring "))
    rows = [line.split(" ") for line in lines if line and not line.startswith(("#", "ring"))]
    before = hl.Cluster.from_config(ring)
    assert [s[2] for s in before.servers] == [True, False, True, True, True, True]
    keys = [r[0] for r in rows]
    check(before, keys, [r[1] for r in rows])
    after = before.recover("10.0.1.4")
    check(after, keys, [r[2] for r in rows])
    joined = hl.moved(before, after, pa.array(keys))
    assert joined.num_rows == 360
    assert set(joined.column("new_server").to_pylist()) == {"10.0.1.4"}
    # The cluster travels as its link: reopened, it places every key the same.
    check(hl.Cluster.from_link(after.link), keys, [r[2] for r in rows])


def ceph_states():
    states = []
    for line in vectors("ceph.txt"):
        words = line.split(" ")
        if words[0] == "scenario":
            params = dict(w.split("=", 1) for w in words[2:])
            states.append((words[1], params, [], []))
        else:
            states[-1][2].append(words[0])
            states[-1][3].append(words[2])
    return states


def test_ceph_objects_go_where_osdmaptool_puts_them():
    states = ceph_states()
    assert [s[0] for s in states] == ["unequal-weights", "osd.5-added", "osd.3-reweighted", "osd.1-out", "pg_num-64"]
    for _, params, names, primaries in states:
        cluster = hl.Cluster("ceph", params["nodes"], down=params.get("down"), pg_num=params["pg_num"])
        check(cluster, names, primaries)


def test_ceph_from_a_decompiled_crush_map():
    state = next(s for s in ceph_states() if s[0] == "osd.3-reweighted")
    crushmap = (REFERENCE / "ceph-crushmap.txt").read_text()
    cluster = hl.Cluster.from_config(crushmap, pg_num=state[1]["pg_num"])
    assert cluster.algorithm == "ceph"
    check(cluster, state[2], state[3])


def test_ceph_over_a_hierarchy_of_hosts_and_racks():
    """Real clusters' CRUSH maps (hosts of OSDs with unequal weights, device classes, two
    racks) read as configs place 2,000 objects where osdmaptool put them, in the package,
    DuckDB and Polars alike — with an OSD out (`down=`), pg_num changed, and a host added
    by the `add-host` step as an operator adds one."""
    states, state = [], None
    for line in vectors("ceph-hierarchy.txt"):
        words = line.split(" ")
        if words[0] == "scenario":
            state = (words[1], dict(w.split("=", 1) for w in words[2:]), [], [])
            states.append(state)
        else:
            state[2].append(words[0])
            state[3].append(words[2])
    assert len(states) == 8
    for name, params, names, primaries in states:
        crushmap = (REFERENCE / "crush" / f"{params['map']}.txt").read_text()
        cluster = hl.Cluster.from_config(crushmap, pg_num=int(params["pg_num"]), down=params.get("down"))
        if "step" in params:
            cluster = cluster.step(params["step"])
        assert "crush=" in cluster.link, name
        check(cluster, names, primaries)


def test_a_pools_crush_rule_is_chosen_by_name_or_id():
    """`rule=` places the pool by one of the map's rules, as `--rule` does: the hdd rule
    never picks an ssd OSD (osd.2, osd.5, osd.9), the map's first rule does; a rule the map
    has not is refused naming its rules."""
    crushmap = (REFERENCE / "crush" / "3-hosts.txt").read_text()
    keys = [f"obj-{i}" for i in range(300)]
    owners = {
        rule: hl.Cluster.from_config(crushmap, pg_num=64, rule=rule).locate(keys)
        for rule in ("hdd_rule", 1, None)
    }
    assert owners["hdd_rule"] == owners[1]
    assert not {"osd.2", "osd.5", "osd.9"} & set(owners["hdd_rule"])
    assert {"osd.2", "osd.5", "osd.9"} & set(owners[None])
    with pytest.raises(hl.ConfigError, match="the map has no rule 'fast'; its rules are replicated_rule"):
        hl.Cluster.from_config(crushmap, rule="fast")
