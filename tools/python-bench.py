#!/usr/bin/env python3
"""The migration list of a large keyspace, measured on this machine: DuckDB with the
extension (bindings/duckdb: native SQL functions on DuckDB's threads), Polars with the
package's plugin (native expressions on Polars' threads), DuckDB through the
package (Python functions), Spark's local mode (mapInArrow, local[N]) and the command line
(`simulate --moved`, 10,000,000 keys a run, the most one run takes), plus the package on its
own (Arrow batches streamed from Parquet, one core). With --rounds N the ways run in turn N
times (alternately, so a slow moment of the machine falls on all of them) and the table
gives each way's fastest, slowest and median, and the median against the package's.

    target/py/bin/python tools/python-bench.py [--keys 100000000] [--work DIR] [--skip spark,cli] [--rounds 3]

Needs `make wheel duckdb-extension`, `cargo build --release` and, for Spark,
`tools/setup-python.sh spark`.
Prints a Markdown table (rows/s, rows/s per core, wall time, peak memory of the whole process
tree, sampled every 0.1 s from /proc) for docs/PYTHON.md. Every run computes the same list;
their row counts are checked equal.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
NGINX = """upstream cache {
    hash $arg_key consistent;
    server 10.0.0.1:80 weight=2;
    server 10.0.0.2:80;
    server 10.0.0.3:80;
    server 10.0.0.4:80;
    server 10.0.0.5:80;
}
"""
STEP = "add:10.0.0.6:80"
CLI_RUN = 10_000_000


def tree_rss(pid: int) -> int:
    """Resident bytes of `pid` and all its descendants."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parent, pages = int(fields[1]), int(fields[21])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
        rss[int(entry)] = pages * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def measured(command: list[str], **kwargs) -> tuple[float, int, str]:
    """Runs `command`; (seconds, peak resident bytes of its process tree, stdout)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, **kwargs)
    peak = 0
    done = threading.Event()

    def sample():
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss(process.pid))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = process.communicate()
    done.set()
    sampler.join()
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"{command[:3]} failed ({process.returncode})")
    return seconds, peak, out


PYTHON = sys.executable


def generate(work: pathlib.Path, count: int) -> pathlib.Path:
    keys = work / f"keys-{count}.parquet"
    if not keys.exists():
        print(f"writing {count:,} keys to {keys}", file=sys.stderr)
        code = (
            "import duckdb; duckdb.sql(\"COPY (SELECT 'user:' || (i * 7919 % 1000000007) AS key "
            f"FROM range({count}) t(i)) TO '{keys}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)\")"
        )
        subprocess.run([PYTHON, "-c", code], check=True)
    return keys


def duckdb_run(work, keys, threads):
    out = work / "moved-duckdb.parquet"
    code = f"""
import duckdb, hashring_lab as hl, hashring_lab.duckdb as hd, warnings
con = duckdb.connect(config={{"threads": {threads}}})
con.execute("SET enable_progress_bar = false")
before = hl.Cluster.from_config(open("{work / 'nginx.conf'}").read())
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # this connection takes no unsigned extension: Python functions
    hd.register(con, clusters={{"before": before, "after": before.step("{STEP}")}})
rel = hd.moved(con, "before", "after", con.read_parquet("{keys}"))
rel.write_parquet("{out}")
print(con.sql("SELECT count(*) FROM '{out}'").fetchall()[0][0])
"""
    return measured([PYTHON, "-c", code])


def extension_run(work, keys, threads):
    out = work / "moved-extension.parquet"
    extension = ROOT / "target" / "duckdb" / "hashring_lab.duckdb_extension"
    code = f"""
import duckdb
con = duckdb.connect(config={{"threads": {threads}, "allow_unsigned_extensions": "true"}})
con.execute("SET enable_progress_bar = false")
con.execute("LOAD '{extension}'")
con.execute("SELECT hashring_cluster('before', ?), hashring_cluster('after', 'before', '{STEP}')",
            [open("{work / 'nginx.conf'}").read()])
con.execute("COPY (FROM hashring_lab.moved('before', 'after', '{keys}')) TO '{out}' (FORMAT parquet)")
print(con.sql("SELECT count(*) FROM '{out}'").fetchall()[0][0])
"""
    return measured([PYTHON, "-c", code])


def polars_run(work, keys, threads):
    out = work / "moved-polars.parquet"
    code = f"""
import os
os.environ["POLARS_MAX_THREADS"] = "{threads}"
import polars as pl, hashring_lab as hl, hashring_lab.polars as hp
before = hl.Cluster.from_config(open("{work / 'nginx.conf'}").read())
plan = hp.moved(pl.scan_parquet("{keys}"), before, before.step("{STEP}"))
assert "python_udf" not in plan.explain(), plan.explain()
plan.sink_parquet("{out}")
print(pl.scan_parquet("{out}").select(pl.len()).collect().item())
"""
    return measured([PYTHON, "-c", code])


def package_run(work, keys):
    code = f"""
import pyarrow.parquet as pq, hashring_lab as hl, tracemalloc
before = hl.Cluster.from_config(open("{work / 'nginx.conf'}").read())
after = before.step("{STEP}")
writer, moved, heap = None, 0, 0
tracemalloc.start()
for i, batch in enumerate(pq.ParquetFile("{keys}").iter_batches(batch_size=1_000_000, columns=["key"])):
    # What the package itself allocates on the Python heap for a million keys (after the
    # first call, which imports pyarrow's table conversion once: 27 MB).
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    table = hl.moved(before, after, batch.column(0))
    if i > 0:
        heap = max(heap, tracemalloc.get_traced_memory()[1] - base)
    writer = writer or pq.ParquetWriter("{work / 'moved-package.parquet'}", table.schema)
    writer.write_table(table)
    moved += table.num_rows
writer.close()
print(moved, heap)
"""
    return measured([PYTHON, "-c", code])


def spark_run(work, keys, cores):
    out = work / "moved-spark"
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, PYSPARK_PYTHON=PYTHON)
    seconds, peak, _ = measured(
        [PYTHON, "-m", "hashring_lab.spark", str(keys), str(out), "--config", str(work / "nginx.conf"),
         "--step", STEP, "--master", f"local[{cores}]"],
        env=env, stderr=subprocess.DEVNULL,
    )
    count = subprocess.run(
        [PYTHON, "-c", f"import pyarrow.parquet as pq; print(pq.read_table('{out}').num_rows)"],
        check=True, capture_output=True, text=True,
    ).stdout
    return seconds, peak, count


def cli_run(work, keys, count):
    """The command line, 10,000,000 keys a run (its limit), one run after another."""
    binary = ROOT / "target" / "release" / "hashring-lab"
    parts = sorted(work.glob("cli-part-*.txt"))
    if len(parts) * CLI_RUN < count:
        print("writing the keys as text files for the command line", file=sys.stderr)
        code = (
            "import duckdb; duckdb.sql(\"COPY (SELECT key, (row_number() OVER () - 1) // "
            f"{CLI_RUN} AS part FROM read_parquet('{keys}')) TO '{work / 'cli'}' "
            "(FORMAT csv, HEADER false, PARTITION_BY part, OVERWRITE true)\")"
        )
        subprocess.run([PYTHON, "-c", code], check=True)
        for i, folder in enumerate(sorted((work / "cli").iterdir(), key=lambda p: int(p.name.split("=")[1]))):
            files = list(folder.glob("*.csv"))
            with open(work / f"cli-part-{i:03}.txt", "wb") as out:
                for f in files:
                    out.write(f.read_bytes())
        shutil.rmtree(work / "cli")
        parts = sorted(work.glob("cli-part-*.txt"))
    total, peak, moved = 0.0, 0, 0
    for part in parts:
        seconds, p, _ = measured([str(binary), "simulate", "--config", str(work / "nginx.conf"), "--keys",
                                  f"@{part}", "--step", STEP, "--moved", str(work / "moved-cli.csv")])
        total += seconds
        peak = max(peak, p)
        with open(work / "moved-cli.csv", "rb") as f:
            moved += sum(1 for _ in f) - 1
    return total, peak, str(moved)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=100_000_000)
    parser.add_argument("--work", type=pathlib.Path, default=ROOT / "target" / "bench-python")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--skip", default="", help="comma-separated: extension,polars,duckdb,spark,cli,package")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    args.work.mkdir(parents=True, exist_ok=True)
    (args.work / "nginx.conf").write_text(NGINX)
    start = time.perf_counter()
    keys = generate(args.work, args.keys)
    print(f"keys: {keys.stat().st_size / 1e6:,.0f} MB of Parquet ({time.perf_counter() - start:.0f} s to write)", file=sys.stderr)
    runs = {}

    def done(name, cores, seconds, peak, out):
        runs.setdefault(name, []).append((cores, seconds, peak, out))
        print(f"{name}: {seconds:.1f} s, {peak / 2**20:,.0f} MB, {out.strip()}", file=sys.stderr)

    for _ in range(args.rounds):
        if "extension" not in skip:
            done(f"DuckDB with the extension, threads={args.cores}", args.cores, *extension_run(args.work, keys, args.cores))
        if "polars" not in skip:
            done(f"Polars with the plugin, threads={args.cores}", args.cores, *polars_run(args.work, keys, args.cores))
        if "duckdb" not in skip:
            done(f"DuckDB with the package's Python functions, threads={args.cores}", args.cores, *duckdb_run(args.work, keys, args.cores))
        if "spark" not in skip:
            done(f"Spark local[{args.cores}]", args.cores, *spark_run(args.work, keys, args.cores))
        if "package" not in skip:
            done("the package, Arrow batches (one core)", 1, *package_run(args.work, keys))
        if "cli" not in skip:
            done(f"command line, {args.keys // CLI_RUN} runs of {CLI_RUN:,}", 1, *cli_run(args.work, keys, args.keys))
    package = next((sorted(r[1] for r in results) for name, results in runs.items() if name.startswith("the package")), None)
    package_median = statistics.median(package) if package else None
    print(f"| {args.keys:,} keys, nginx 5 → 6 servers | wall | median | × the package | rows/s | rows/s per core | peak memory | moved |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    counts = set()
    for name, results in runs.items():
        cores = results[0][0]
        times = sorted(r[1] for r in results)
        peak = max(r[2] for r in results)
        outs = [r[3] for r in results]
        counts.update(int(out.split()[0]) for out in outs)
        moved = int(outs[0].split()[0])
        extra = f" (Python heap: {int(outs[0].split()[1]):,} B a million keys)" if len(outs[0].split()) > 1 else ""
        wall = f"{times[0]:,.1f} s" if len(times) == 1 else f"{times[0]:,.1f}–{times[-1]:,.1f} s"
        median = statistics.median(times)
        ratio = f"{median / package_median:.2f}×" if package_median else "–"
        print(f"| {name} | {wall} | {median:,.1f} s | {ratio} | {args.keys / times[0] / 1e6:,.2f} M | {args.keys / times[0] / cores / 1e6:,.2f} M "
              f"| {peak / 2**20:,.0f} MB{extra} | {moved:,} |")
    assert len(counts) == 1, f"the runs disagree on the rows: {counts}"


if __name__ == "__main__":
    main()
