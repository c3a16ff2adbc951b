#!/usr/bin/env python3
"""Makes the DuckDB extension file from the shared library cargo built: the library with
the 512-byte footer DuckDB reads before it loads an extension (a WebAssembly-style custom
section named duckdb_signature: eight 32-byte fields, then 256 bytes where a signature
would go — this extension is unsigned, so DuckDB loads it only with
allow_unsigned_extensions). The fields, last first as DuckDB reads them: the magic "4",
the platform, the C API version the extension needs, the extension's version, the ABI
(C_STRUCT: the C extension API's function table).

    tools/duckdb_extension.py LIBRARY OUT VERSION
"""
import platform
import shutil
import sys

C_API_VERSION = "v1.2.0"


def duckdb_platform() -> str:
    """DuckDB's name for this machine's platform (linux_amd64, osx_arm64, …)."""
    system = {"Linux": "linux", "Darwin": "osx", "Windows": "windows"}[platform.system()]
    machine = {"x86_64": "amd64", "AMD64": "amd64", "aarch64": "arm64", "arm64": "arm64"}[platform.machine()]
    return f"{system}_{machine}"


def field(text: str) -> bytes:
    raw = text.encode("ascii")
    if len(raw) > 32:
        raise SystemExit(f"duckdb_extension.py: {text[:40]!r} is longer than a footer field's 32 bytes")
    return raw + b"\0" * (32 - len(raw))


def footer(version: str) -> bytes:
    # A custom section: id 0, size 531 (LEB128 0x93 0x04), name length 16, the name, then
    # the payload's size 512 (LEB128 0x80 0x04).
    start = bytes([0, 0x93, 0x04, 16]) + b"duckdb_signature" + bytes([0x80, 0x04])
    fields = ["", "", "", "C_STRUCT", version, C_API_VERSION, duckdb_platform(), "4"]
    return start + b"".join(field(f) for f in fields) + b"\0" * 256


def main() -> None:
    if len(sys.argv) != 4:
        raise SystemExit(__doc__.strip().splitlines()[-1].strip())
    library, out, version = sys.argv[1:]
    shutil.copyfile(library, out + ".tmp")
    with open(out + ".tmp", "ab") as f:
        f.write(footer(version))
    shutil.move(out + ".tmp", out)


if __name__ == "__main__":
    main()
