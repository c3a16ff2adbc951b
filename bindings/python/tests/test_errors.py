"""Bad input gives a Python exception with the engine's own words — the command line's
message, word for word — and never a crash of the interpreter (a Rust panic would surface as
`pyo3_runtime.PanicException`, which is not an `hashring_lab.Error`)."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

import hashring_lab as hl
from conftest import REFERENCE, run


def cli_message(*args: str) -> str:
    done = run(*args)
    assert done.returncode != 0
    return done.stderr.strip().removeprefix("hashring-lab: ")


BAD_CONFIGS = {
    "weight zero": "upstream x {\n hash $arg_key consistent;\n server a weight=0;\n}\n",
    "no servers": "upstream x {\n hash $arg_key consistent;\n}\n",
    "not a config": "hello\n",
    "haproxy without hash-type": "backend b\n    balance url_param key\n    server s1 10.0.0.1:80\n",
    "cluster nodes cut": "07c37dfeb235213a872192d90877d0cd55635b91 127.0.0.1:30004@31004 master - 0 1426238317239 4 connected 0-\n",
    "envoy without endpoints": "name: c\nlb_policy: RING_HASH\nload_assignment:\n  endpoints:\n  - lb_endpoints: []\n",
    "crush map with a straw bucket": (REFERENCE / "ceph-crushmap.txt").read_text().replace("alg straw2", "alg straw"),
    "crush map with an erasure-coded rule": (REFERENCE / "crush" / "3-hosts.txt").read_text().replace("type replicated", "type erasure"),
}


@pytest.mark.parametrize("name", sorted(BAD_CONFIGS))
def test_a_bad_config_says_what_the_command_line_says(tmp_path, name):
    path = tmp_path / "config.txt"
    path.write_text(BAD_CONFIGS[name])
    with pytest.raises(hl.ConfigError) as raised:
        hl.Cluster.from_config(BAD_CONFIGS[name])
    want = cli_message("locate", "--config", str(path), "k")
    flag, message = want.split(": ", 1)
    assert (flag.startswith("--config '"), message) == (True, str(raised.value))


@pytest.mark.parametrize(
    "kwargs,flags",
    [
        ({"algo": "ring", "nodes": "A,A"}, ["--nodes", "A,A"]),
        ({"algo": "nope"}, None),
        ({"algo": "ring", "vnodes": 0}, ["--vnodes", "0"]),
        ({"algo": "maglev", "table": 100}, ["--algo", "maglev", "--table", "100"]),
        ({"algo": "ceph", "pg_num": 0}, ["--algo", "ceph", "--pg-num", "0"]),
        ({"algo": "ring", "down": "Z"}, ["--down", "Z"]),
        ({"algo": "ring", "nodes": ["A", "B*200"]}, ["--nodes", "A,B*200"]),
    ],
)
def test_bad_parameters_say_what_the_command_line_says(kwargs, flags):
    with pytest.raises(hl.ScenarioError) as raised:
        hl.Cluster(**kwargs)
    if flags is not None:
        assert str(raised.value) == cli_message("locate", *flags, "k")
    else:
        assert "choose one of" in str(raised.value)


def test_a_change_that_cannot_apply_says_why():
    c = hl.Cluster("ring", "A,B")
    with pytest.raises(hl.StepError, match="there is no server 'Z'; the servers are A, B"):
        c.remove("Z")
    with pytest.raises(hl.StepError, match="unknown step"):
        c.step("explode:A")
    # The cluster it came from is unchanged.
    assert [s[0] for s in c.servers] == ["A", "B"]


def test_key_columns_of_every_text_kind_place_alike():
    c = hl.Cluster("nginx", "a:80,b:80*2,c:80")
    keys = [f"user:{i}" for i in range(500)] + [None]
    want = c.locate(keys)
    assert want[-1] is None and all(want[:-1])
    for kind in (pa.string(), pa.large_string(), pa.string_view()):
        assert c.locate(pa.array(keys, kind)).to_pylist() == want
    assert c.locate(pa.array(keys).dictionary_encode()).to_pylist() == want
    assert c.locate(pa.array([k.encode() if k else None for k in keys], pa.binary())).to_pylist() == want
    assert c.locate(pa.chunked_array([keys[:100], keys[100:]])).to_pylist() == want
    # Integers are placed as their decimal text.
    ints = pa.array([1, 22, -333, None], pa.int64())
    assert c.locate(ints).to_pylist() == c.locate(["1", "22", "-333", None])


def test_key_columns_that_are_not_keys_are_refused():
    c = hl.Cluster()
    with pytest.raises(hl.KeyColumnError, match="the key column is Float64; keys are text"):
        c.locate(pa.array([1.5]))
    with pytest.raises(hl.KeyColumnError, match="not UTF-8"):
        c.locate(pa.array([b"\xff\xfe"], pa.binary()))
    # One int is a key, as an integer column's are (its decimal text); a float is not.
    assert c.locate(42) == c.locate("42")
    with pytest.raises(hl.KeyColumnError, match="the key is of type float.*or give a list of keys or an Arrow column"):
        c.locate(4.2)
    with pytest.raises(hl.ScenarioError, match="bounded places each key by the keys before it"):
        hl.Cluster("bounded")


def test_null_keys_pass_through_and_do_not_move():
    c = hl.Cluster("ring", "A,B,C")
    assert c.locate(pa.array([None, "k"])).to_pylist()[0] is None
    moved = hl.moved(c, c.remove("A"), pa.array([None] * 10 + [f"k{i}" for i in range(100)]))
    assert None not in moved.column("key").to_pylist()
    assert set(moved.column("old_server").to_pylist()) == {"A"}


def test_no_server_up_gives_null_owners():
    c = hl.Cluster("ring", "A,B", down="A,B")
    assert c.locate(["k1", "k2"]) == [None, None]
    revived = c.recover("A")
    table = hl.moved(c, revived, ["k1", "k2"])
    assert table.column("old_server").to_pylist() == [None, None]
    assert table.column("new_server").to_pylist() == ["A", "A"]


def mutations(text: str, rng: random.Random, count: int):
    pieces = [" ", "\n", "{", "}", ";", ":", "weight=", "*", "-", "0", "99999999999999999999", "é", "\x00", "\t"]
    for _ in range(count):
        t = text
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(t) + 1)
            op = rng.random()
            if op < 0.4:
                t = t[:at] + t[at + rng.randint(1, 8):]
            elif op < 0.8:
                t = t[:at] + rng.choice(pieces) + t[at:]
            else:
                t = t[:at]
        yield t


def test_mangled_real_configs_never_crash():
    """Real configs (each reader's), cut and spliced at random: each either reads or raises
    hashring_lab.Error — nothing else escapes."""
    sources = [
        "".join(l[2:] + "\n" for l in (REFERENCE / "haproxy-configs.txt").read_text().splitlines() if l.startswith("| "))[:600],
        "".join(l[5:] + "\n" for l in (REFERENCE / "redis-cluster.txt").read_text().splitlines() if l.startswith("node ")),
        "".join(l[5:] + "\n" for l in (REFERENCE / "cassandra-ring.txt").read_text().splitlines() if l.startswith("ring "))[:1500],
        (REFERENCE / "ceph-crushmap.txt").read_text(),
        BAD_CONFIGS["weight zero"].replace("weight=0", "weight=3"),
        "name: c\nlb_policy: MAGLEV\nload_assignment:\n  endpoints:\n  - lb_endpoints:\n    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}\n",
        "alpha:\n  listen: 127.0.0.1:22121\n  hash: fnv1a_64\n  distribution: ketama\n  servers:\n   - 127.0.0.1:6379:1 one\n   - 127.0.0.1:6380:2 two\n",
    ]
    rng = random.Random(20261204)
    read = refused = 0
    for source in sources:
        hl.Cluster.from_config(source)  # each unmangled source reads
        for text in mutations(source, rng, 150):
            try:
                c = hl.Cluster.from_config(text)
                c.locate(["k1", "k2"])
                read += 1
            except hl.Error:
                refused += 1
    assert read > 50 and refused > 50, (read, refused)


def test_an_unknown_parameter_is_named():
    with pytest.raises(hl.ScenarioError, match="unknown parameter 'vnode'; the parameters are hash, vnodes"):
        hl.Cluster("ring", "A,B", vnode=10)
    # `down` is applied after a config (an OSD out, which a CRUSH map cannot say), naming
    # the config's servers, as the command line's --down after --config.
    config = "upstream x {\n hash $arg_key consistent;\n server a;\n server b;\n}\n"
    assert [s[2] for s in hl.Cluster.from_config(config, down="a").servers] == [False, True]
    with pytest.raises(hl.ScenarioError, match="down \\(after the config\\): down: 'z' is not one of the servers"):
        hl.Cluster.from_config(config, down="z")
    with pytest.raises(hl.ScenarioError, match="unknown parameter 'slotmap'"):
        hl.Cluster.from_config(config, slotmap="0-16383")


def test_an_unrecognised_config_lists_every_reader():
    with pytest.raises(hl.ConfigError) as raised:
        hl.Cluster.from_config("hello\n")
    for reader in ("nginx", "HAProxy", "twemproxy", "Envoy", "CLUSTER NODES", "CLUSTER SHARDS", "nodetool ring", "CRUSH map"):
        assert reader in str(raised.value), reader


def test_a_one_column_table_stands_for_its_column():
    c = hl.Cluster("ring", "A,B,C")
    keys = [f"k{i}" for i in range(100)]
    want = c.locate(keys)
    assert c.locate(pa.table({"key": keys})).to_pylist() == want
    assert c.locate(pa.record_batch({"key": keys})).to_pylist() == want
