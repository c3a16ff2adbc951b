"""Shared by the package's tests: where the committed reference vectors and the command line
are, and how to run the command line."""

from __future__ import annotations

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
REFERENCE = ROOT / "tests" / "reference"


def command_line() -> pathlib.Path:
    """The `hashring-lab` binary the tests compare with (`make test-python` builds it)."""
    given = os.environ.get("HASHRING_LAB_BIN")
    if given:
        return pathlib.Path(given)
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "hashring-lab"
        if path.exists():
            return path
    pytest.skip("no hashring-lab binary: run `cargo build --release` first")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Runs the command line; its exit status is the caller's to check."""
    return subprocess.run(
        [str(command_line()), *args], input=stdin, capture_output=True, text=True, check=False
    )


def vectors(name: str) -> list[str]:
    """A reference file's lines without its comments."""
    text = (REFERENCE / name).read_text()
    return [line for line in text.splitlines() if line and not line.startswith("#")]
