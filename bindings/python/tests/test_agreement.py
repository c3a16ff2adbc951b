"""The package and the command line agree on random scenarios, for every algorithm the
registry has (the list comes from the engine, so a new algorithm is checked without editing
this file): random servers, weights, failed servers, vnodes and keys; the owners of the keys
before and after a random change, and the migration list between them."""

from __future__ import annotations

import json
import random

import pyarrow as pa
import pytest

import hashring_lab as hl
from conftest import run

PER_KEY = [a for a in hl.algorithms() if a != "bounded"]


def random_scenario(algo: str, rng: random.Random):
    count = rng.randint(1, 9)
    style = rng.choice(["letters", "hostport", "osd"])
    names = {
        "letters": [chr(ord("A") + i) for i in range(count)],
        "hostport": [f"10.0.{rng.randint(0, 9)}.{i + 1}:{rng.choice([80, 6379, 11211])}" for i in range(count)],
        "osd": [f"osd.{i}" for i in range(count)],
    }[style]
    nodes = [n if rng.random() < 0.6 else f"{n}*{rng.choice([2, 3, 0.5])}" for n in names]
    down = [n for n in names if rng.random() < 0.15][: count - 1]
    params = {"vnodes": rng.choice([1, 10, 40, 160])}
    keys = [rng.choice(["key-", "user:", "", "对象"]) + str(rng.randint(0, 10**9)) for _ in range(300)]
    step = rng.choice([f"add:new-{rng.randint(0, 99)}", f"fail:{names[0]}", f"remove:{names[-1]}"])
    if step.startswith(("fail", "remove")) and (count == 1 or names[-1] in down or names[0] in down):
        step = "add:extra"
    return names, nodes, down, params, keys, step


def cli_owners(algo, nodes, down, params, keys, step=None):
    flags = ["--algo", algo, "--nodes", ",".join(nodes), "--down", ",".join(down)]
    flags += [f"--{k}={v}" for k, v in params.items()]
    if step is None:
        done = run("locate", *flags, "--format", "json", *keys)
        assert done.returncode == 0, done.stderr
        return [r["server"] for r in json.loads(done.stdout)]
    return flags


@pytest.mark.parametrize("algo", PER_KEY)
def test_the_package_places_keys_as_the_command_line(algo, tmp_path):
    rng = random.Random(f"agreement-{algo}")
    for _ in range(2):
        names, nodes, down, params, keys, step = random_scenario(algo, rng)
        try:
            cluster = hl.Cluster(algo, nodes, down=down, **params)
        except hl.ScenarioError as refused:
            # What the package refuses, the command line refuses in the same words.
            flags = cli_owners(algo, nodes, down, params, keys, step="x")
            done = run("locate", *flags, "k")
            assert done.returncode != 0 and str(refused) in done.stderr
            continue
        assert cluster.locate(pa.array(keys)).to_pylist() == cli_owners(algo, nodes, down, params, keys)
        # The migration list of a change equals `simulate --moved` over the same keys.
        (tmp_path / "keys.txt").write_text("\n".join(keys) + "\n")
        flags = cli_owners(algo, nodes, down, params, keys, step=step)
        out = tmp_path / "moved.csv"
        done = run("simulate", *flags, "--keys", f"@{tmp_path / 'keys.txt'}", "--step", step, "--moved", str(out))
        try:
            after = cluster.step(step)
        except hl.StepError as refused:
            assert done.returncode != 0 and str(refused) in done.stderr
            continue
        assert done.returncode == 0, done.stderr
        import pyarrow.csv as pacsv

        strings = pacsv.ConvertOptions(column_types={c: pa.string() for c in ("key", "from", "to")}, strings_can_be_null=False)
        want = pacsv.read_csv(out, convert_options=strings)
        got = hl.moved(cluster, after, keys)
        for ours, theirs in (("key", "key"), ("old_server", "from"), ("new_server", "to")):
            assert got.column(ours).to_pylist() == want.column(theirs).to_pylist(), (step, ours)
