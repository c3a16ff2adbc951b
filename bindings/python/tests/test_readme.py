"""The README's example runs as written: `pip install` of the built wheel into a fresh
virtual environment, then the example's code, unchanged, next to a keys.parquet."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import hashring_lab as hl
from conftest import ROOT


def readme_example() -> str:
    readme = (ROOT / "README.md").read_text()
    found = re.search(r"<!-- readme-example:[^>]*-->\n```python\n(.*?)```", readme, re.S)
    assert found, "README.md has no example marked readme-example"
    code = found.group(1)
    assert len(code.strip().splitlines()) <= 10, "the README promises ten lines"
    return code


def wheel() -> pathlib.Path:
    folder = pathlib.Path(os.environ.get("HASHRING_LAB_WHEEL_DIR", ROOT / "target" / "wheels"))
    wheels = sorted(folder.glob("hashring_lab-*.whl"))
    if not wheels:
        pytest.skip(f"no wheel in {folder}: run `make wheel`")
    return wheels[-1]


def test_the_readme_example_runs_in_a_fresh_environment(tmp_path):
    env = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    python = env / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel())],
        capture_output=True, text=True,
    )
    assert install.returncode == 0, install.stderr
    keys = pa.array([f"user:{i}" for i in range(100_000)])
    pq.write_table(pa.table({"key": keys}), tmp_path / "keys.parquet")
    (tmp_path / "example.py").write_text(readme_example())
    ran = subprocess.run([str(python), "example.py"], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    count = re.fullmatch(r"([\d,]+) of 100,000 keys move\n", ran.stdout)
    assert count, ran.stdout
    # The file it wrote is this package's migration list.
    nginx = re.search(r'nginx = """(.*?)"""', readme_example(), re.S).group(1)
    before = hl.Cluster.from_config(nginx)
    want = hl.moved(before, before.add("10.0.0.4:80"), keys)
    got = pq.read_table(tmp_path / "moved.parquet")
    assert got.equals(want)
    assert int(count.group(1).replace(",", "")) == want.num_rows > 15_000


def test_the_readme_sql_runs_in_the_duckdb_command_line(tmp_path):
    readme = (ROOT / "README.md").read_text()
    found = re.search(r"<!-- readme-sql:[^>]*-->\n```sql\n(.*?)```", readme, re.S)
    assert found, "README.md has no SQL example marked readme-sql"
    sql = found.group(1)
    # Run as written, from a folder that has the extension where the README loads it from.
    extension = pathlib.Path(os.environ.get("HASHRING_LAB_DUCKDB_EXTENSION", ROOT / "target/duckdb/hashring_lab.duckdb_extension"))
    assert extension.exists(), f"no DuckDB extension at {extension}: make duckdb-extension"
    (tmp_path / "target" / "duckdb").mkdir(parents=True)
    (tmp_path / "target" / "duckdb" / "hashring_lab.duckdb_extension").symlink_to(extension.resolve())
    keys = [f"user:{i}" for i in range(20_000)]
    pq.write_table(pa.table({"key": keys}), tmp_path / "keys.parquet")
    cli = ROOT / "target" / "py" / "bin" / "duckdb"
    ran = subprocess.run([str(cli), "-unsigned", "-csv", "-c", sql], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    start = lines.index("key,old_server,new_server")
    got = [tuple(line.split(",")) for line in lines[start + 1 :]]
    before = hl.Cluster("ketama", ["cache-1", "cache-2", "cache-3"])
    want = hl.moved(before, before.add("cache-4"), keys).to_pylist()
    assert sorted(got) == sorted((r["key"], r["old_server"], r["new_server"]) for r in want)
    assert 3_000 < len(got) < 7_000


def test_the_readme_polars_example_runs_after_the_first(tmp_path):
    readme = (ROOT / "README.md").read_text()
    found = re.search(r"<!-- readme-polars:[^>]*-->\n```python\n(.*?)```", readme, re.S)
    assert found, "README.md has no Polars example marked readme-polars"
    keys = [f"user:{i}" for i in range(20_000)]
    pq.write_table(pa.table({"key": keys}), tmp_path / "keys.parquet")
    (tmp_path / "example.py").write_text(readme_example() + found.group(1))
    ran = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    nginx = re.search(r'nginx = """(.*?)"""', readme_example(), re.S).group(1)
    counts = pa.table({"s": hl.Cluster.from_config(nginx).locate(pa.array(keys))}).group_by("s").aggregate([("s", "count")])
    for row in counts.to_pylist():
        assert re.search(rf"│ {re.escape(row['s'])}\s+┆ {row['s_count']}\s+│", ran.stdout), (row, ran.stdout)
