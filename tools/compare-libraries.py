#!/usr/bin/env python3
"""hashring_lab against the libraries a Python user picks for the same job, in one run:
PyPI's uhashring (ketama) and jump-consistent-hash (jump). For each: do they agree key for
key, and how long does each take to place the keys and to list the keys a change moves —
each way in turn, --rounds times (alternately, so a slow moment falls on all of them), the
fastest and slowest given. The libraries are installed from PyPI, pinned, into an
environment of the benchmark's own (target/bench-libs), beside the wheel `make wheel` built.

    python3 tools/compare-libraries.py [--keys 100000] [--rounds 3]

Prints a Markdown table for docs/PYTHON.md.
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import venv

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENV = ROOT / "target" / "bench-libs"
PINNED = ["uhashring==2.5", "jump-consistent-hash==3.6.0", "pyarrow==26.0.1", "numpy==2.4.6"]

# Runs inside ENV: prints one line per measurement, `what|seconds|detail`.
MEASURE = r'''
import sys, time
import numpy as np, pyarrow as pa
import hashring_lab as hl
import jump
from uhashring import HashRing

count, rounds = int(sys.argv[1]), int(sys.argv[2])
say = lambda what, seconds, detail="": print(f"{what}|{seconds:.4f}|{detail}", flush=True)

def timed(f):
    start = time.perf_counter()
    out = f()
    return time.perf_counter() - start, out

# ketama: libmemcached's weighted pool (tools/uhashring-vectors.py's "weights"); uhashring
# names a port-11211 server by its host, as libmemcached hashes it, and answers the instance.
POOL = [("10.0.0.1:11211", 1), ("10.0.0.2:11211", 2), ("10.0.0.3:11211", 3)]
ADDED = ("10.0.0.4:11211", 1)
def ring(pool):
    return HashRing({n.rsplit(":", 1)[0]: {"weight": w, "instance": n} for n, w in pool}, hash_fn="ketama")
def cluster(pool):
    return hl.Cluster("ketama", [f"{n}*{w}" if w != 1 else n for n, w in pool])
keys = [f"user:{i}" for i in range(count)]
column = pa.array(keys)
u_before, u_after = ring(POOL), ring(POOL + [ADDED])
h_before, h_after = cluster(POOL), cluster(POOL + [ADDED])

# jump: 64-bit integer keys, 10 buckets -> 11.
ints = np.random.default_rng(7).integers(0, 2**63, size=count, dtype=np.uint64)
int_list = [int(k) for k in ints]
j_before = hl.Cluster("jump", [f"b{i}" for i in range(10)], hash="identity")
j_after = j_before.add("b10")

for r in range(rounds):
    t, theirs = timed(lambda: [u_before.get_node_instance(k) for k in keys])
    say("uhashring: place", t)
    t, ours = timed(lambda: h_before.locate(column))
    say("hashring_lab ketama: place", t)
    if r == 0:
        agree = sum(a == b for a, b in zip(theirs, ours.to_pylist()))
        say("ketama agreement", 0, f"{agree}/{count}")
    t, theirs_moved = timed(lambda: [(k, a, b) for k, a, b in zip(keys, (u_before.get_node_instance(k) for k in keys), (u_after.get_node_instance(k) for k in keys)) if a != b])
    say("uhashring: moved", t)
    t, ours_moved = timed(lambda: hl.moved(h_before, h_after, column))
    say("hashring_lab ketama: moved", t)
    if r == 0:
        same = theirs_moved == [tuple(row.values()) for row in ours_moved.to_pylist()]
        say("ketama migration list", 0, f"{'identical' if same else 'DIFFERENT'}, {len(theirs_moved)} rows")
    t, theirs = timed(lambda: [jump.hash(k, 10) for k in int_list])
    say("jump-consistent-hash: place", t)
    t, ours = timed(lambda: j_before.locate(ints))
    say("hashring_lab jump: place", t)
    if r == 0:
        agree = sum(f"b{a}" == b for a, b in zip(theirs, ours.to_pylist()))
        say("jump agreement", 0, f"{agree}/{count}")
    t, theirs_moved = timed(lambda: [(k, a, b) for k, a, b in zip(int_list, (jump.hash(k, 10) for k in int_list), (jump.hash(k, 11) for k in int_list)) if a != b])
    say("jump-consistent-hash: moved", t)
    t, ours_moved = timed(lambda: hl.moved(j_before, j_after, ints))
    say("hashring_lab jump: moved", t)
    if r == 0:
        same = [(str(k), f"b{a}", f"b{b}") for k, a, b in theirs_moved] == [tuple(row.values()) for row in ours_moved.to_pylist()]
        say("jump migration list", 0, f"{'identical' if same else 'DIFFERENT'}, {len(theirs_moved)} rows")
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    wheels = sorted((ROOT / "target" / "wheels").glob("hashring_lab-*.whl"))
    if not wheels:
        raise SystemExit("no wheel in target/wheels: run `make wheel` first")
    python = ENV / "bin" / "python"
    if not python.exists():
        venv.create(ENV, with_pip=True)
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, *PINNED], check=True)
    subprocess.run([*pip, "--force-reinstall", "--no-deps", str(wheels[-1])], check=True)
    out = subprocess.run([str(python), "-c", MEASURE, str(args.keys), str(args.rounds)],
                         check=True, capture_output=True, text=True).stdout
    times: dict[str, list[float]] = {}
    notes = []
    for line in out.splitlines():
        what, seconds, detail = line.split("|")
        if detail:
            notes.append(f"- {what}: {detail}")
        else:
            times.setdefault(what, []).append(float(seconds))
    print(f"| {args.keys:,} keys, {args.rounds} rounds | fastest | slowest |")
    print("| --- | ---: | ---: |")
    for what, ts in times.items():
        print(f"| {what} | {min(ts) * 1000:,.1f} ms | {max(ts) * 1000:,.1f} ms |")
    print("\n".join(notes))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
