#!/usr/bin/env python3
"""Trunk post_build hook: give the wasm's imports short names, in the wasm and its JS glue.

wasm-bindgen names every import after what it binds plus a 16-hex-digit hash
(`__wbg_addEventListener_f2d27251d333a631`); the page has ~220 of them, written once in the
wasm's import section and once as keys of the JS glue's import object. The hashes do not
compress: they were 6.8 KB of the page's gzip size. This renames each to a short name
(`a`, `b`, … `aB`) in both files, then refreshes the Subresource Integrity hashes Trunk wrote
for them in index.html. Nothing else changes: the glue looks imports up only through that
object, and the wasm only through its import section.
"""
import base64
import glob
import hashlib
import os
import re
import string
import sys

staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")


def leb(data, i):
    """Reads an unsigned LEB128 at `i`: (value, next index)."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def to_leb(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def name_at(data, i):
    n, i = leb(data, i)
    return data[i:i + n].decode("utf-8"), i + n


def limits_end(data, i):
    flags = data[i]
    _, i = leb(data, i + 1)
    if flags & 1:
        _, i = leb(data, i)
    return i


def rename_imports(wasm, rename):
    """The wasm with import field names replaced by `rename(module, field)` (or kept)."""
    assert wasm[:8] == b"\0asm\x01\0\0\0", "not a wasm module"
    out = bytearray(wasm[:8])
    i = 8
    while i < len(wasm):
        sid = wasm[i]
        size, body_start = leb(wasm, i + 1)
        body_end = body_start + size
        if sid != 2:
            out += wasm[i:body_end]
            i = body_end
            continue
        count, j = leb(wasm, body_start)
        body = bytearray(to_leb(count))
        for _ in range(count):
            module, j = name_at(wasm, j)
            field, j = name_at(wasm, j)
            kind = wasm[j]
            desc_start = j
            j += 1
            if kind in (0x00, 0x04):  # function (type index), tag (attribute, type index)
                if kind == 0x04:
                    j += 1
                _, j = leb(wasm, j)
            elif kind == 0x01:  # table: reference type, limits
                j = limits_end(wasm, j + 1)
            elif kind == 0x02:  # memory: limits
                j = limits_end(wasm, j)
            elif kind == 0x03:  # global: value type, mutability
                j += 2
            else:
                sys.exit(f"short_imports: unknown import kind {kind:#x}")
            new_field = rename(module, field).encode("utf-8")
            module_bytes = module.encode("utf-8")
            body += to_leb(len(module_bytes)) + module_bytes
            body += to_leb(len(new_field)) + new_field
            body += wasm[desc_start:j]
        assert j == body_end, "import section length mismatch"
        out += bytes([2]) + to_leb(len(body)) + body
        i = body_end
    return bytes(out)


def short_name(k):
    letters = string.ascii_letters
    name = ""
    while True:
        name = letters[k % 52] + name
        k //= 52
        if k == 0:
            return name


def sri(data):
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


index_path = os.path.join(staging, "index.html")
html = open(index_path, encoding="utf-8").read()
wasm_name = re.search(r"\./([A-Za-z0-9._-]+_bg\.wasm)", html).group(1)
js_name = re.search(r"\./([A-Za-z0-9._-]+\.js)", html).group(1)
wasm_path, js_path = os.path.join(staging, wasm_name), os.path.join(staging, js_name)
wasm, js = open(wasm_path, "rb").read(), open(js_path, encoding="utf-8").read()
old_wasm, old_js = wasm, js.encode("utf-8")

# Only imports the glue defines as `name:` keys, each key exactly once.
mapping = {}


def rename(module, field):
    if not re.fullmatch(r"__wbg_[A-Za-z0-9_]+", field):
        return field
    if len(re.findall(r"(?<![\w$])" + re.escape(field) + r"(?=:)", js)) != 1:
        sys.exit(f"short_imports: the glue does not define {field} exactly once")
    mapping.setdefault(field, "_" + short_name(len(mapping)))
    return mapping[field]


wasm = rename_imports(wasm, rename)
js = re.sub(r"(?<![\w$])(__wbg_[A-Za-z0-9_]+)(?=:)", lambda m: mapping.get(m.group(1), m.group(1)), js)
left = [m for m in mapping if m in js]
if left:
    sys.exit(f"short_imports: {left[0]} is still named in the glue")
open(wasm_path, "wb").write(wasm)
open(js_path, "w", encoding="utf-8").write(js)
for name, before, after in ((wasm_name, old_wasm, wasm), (js_name, old_js, js.encode("utf-8"))):
    if sri(before) in html:
        html = html.replace(sri(before), sri(after))
    elif "integrity=" in html and name in html:
        sys.exit(f"short_imports: no integrity hash of {name} to refresh in index.html")
open(index_path, "w", encoding="utf-8").write(html)
saved = len(old_wasm) + len(old_js) - len(wasm) - len(js.encode("utf-8"))
print(f"short_imports: {len(mapping)} imports renamed ({saved} bytes fewer)")
