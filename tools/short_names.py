#!/usr/bin/env python3
"""Trunk post_build hook: short names for what the wasm and its JS glue call each other by.

wasm-bindgen names every import after what it binds plus a 16-hex-digit hash
(`__wbg_addEventListener_f2d27251d333a631`); the page has ~220 of them, written once in the
wasm's import section and once as keys of the JS glue's import object. The hashes do not
compress: they were 6.8 KB of the page's gzip size. This renames each to a short name
(`_a`, `_b`, … `_aB`) in both files. The same goes for:

- the module all those imports come from (`./hashring-lab_bg.js`, written once per import:
  −214 B gzip), which becomes `a` — the glue names it once, as its import object's key;
- the wasm's exports that wasm-bindgen names after the closure types they call
  (`wasm_bindgen_<hash>___convert__closures_____invoke___…`, up to 191 characters, hashes
  again) and its own `__wbindgen_*` / `__externref_*` helpers, which become `$wa`, `$wb`, …
  in the wasm's export section and everywhere the glue names them (−508 B gzip);
- two custom sections no browser reads, `producers` and `target_features`.

Then it refreshes the Subresource Integrity hashes Trunk wrote for both files in
index.html. Nothing else changes: the glue reaches the wasm only through its exports and
gives it only its import object.
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


KEEP = object()


def rewrite_sections(wasm, rewrite):
    """The wasm with each section's body replaced by `rewrite(id, data, start, end)`: new
    body bytes, `KEEP` to copy the section as it is, or `None` to drop it."""
    assert wasm[:8] == b"\0asm\x01\0\0\0", "not a wasm module"
    out = bytearray(wasm[:8])
    i = 8
    while i < len(wasm):
        sid = wasm[i]
        size, body_start = leb(wasm, i + 1)
        body_end = body_start + size
        body = rewrite(sid, wasm, body_start, body_end)
        if body is KEEP:
            out += wasm[i:body_end]
        elif body is not None:
            out += bytes([sid]) + to_leb(len(body)) + body
        i = body_end
    return bytes(out)


def rename_imports(wasm, rename, module_name):
    """The wasm with import field names replaced by `rename(module, field)` (or kept), and
    module names by `module_name(module)`."""

    def imports(sid, wasm, body_start, body_end):
        if sid != 2:
            return KEEP
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
                sys.exit(f"short_names: unknown import kind {kind:#x}")
            new_field = rename(module, field).encode("utf-8")
            module_bytes = module_name(module).encode("utf-8")
            body += to_leb(len(module_bytes)) + module_bytes
            body += to_leb(len(new_field)) + new_field
            body += wasm[desc_start:j]
        assert j == body_end, "import section length mismatch"
        return bytes(body)

    return rewrite_sections(wasm, imports)


def rename_exports(wasm, rename):
    """The wasm with export names replaced by `rename(name)` (or kept), and without the
    `producers` and `target_features` custom sections."""

    def exports(sid, wasm, body_start, body_end):
        if sid == 0 and name_at(wasm, body_start)[0] in ("producers", "target_features"):
            return None
        if sid != 7:
            return KEEP
        count, j = leb(wasm, body_start)
        body = bytearray(to_leb(count))
        for _ in range(count):
            name, j = name_at(wasm, j)
            desc_start = j
            _, j = leb(wasm, j + 1)  # kind, index
            new_name = rename(name).encode("utf-8")
            body += to_leb(len(new_name)) + new_name + wasm[desc_start:j]
        assert j == body_end, "export section length mismatch"
        return bytes(body)

    return rewrite_sections(wasm, exports)


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
        sys.exit(f"short_names: the glue does not define {field} exactly once")
    mapping.setdefault(field, "_" + short_name(len(mapping)))
    return mapping[field]


# The one module the imports come from: its key in the glue's import object.
module = "./" + re.sub(r"-[0-9a-f]+_bg\.wasm$", "_bg.js", wasm_name)
module_key = '"' + module + '":'
if js.count(module_key) != 1 or '"a":' in js:
    sys.exit(f"short_names: the glue does not name {module} exactly once as a key")


def module_name(name):
    if name != module:
        sys.exit(f"short_names: an import from {name}, not {module}")
    return "a"


wasm = rename_imports(wasm, rename, module_name)
js = re.sub(r"(?<![\w$])(__wbg_[A-Za-z0-9_]+)(?=:)", lambda m: mapping.get(m.group(1), m.group(1)), js)
js = js.replace(module_key, '"a":')
left = [m for m in mapping if m in js]
if left:
    sys.exit(f"short_names: {left[0]} is still named in the glue")

# The exports wasm-bindgen names at length; `$` starts no name the minified glue has.
exports = {}


def rename_export(name):
    if not re.match(r"(wasm_bindgen_|__wbindgen_|__externref_)", name):
        return name
    exports.setdefault(name, "$w" + short_name(len(exports)))
    return exports[name]


if "$w" in js:
    sys.exit("short_names: the glue already uses names starting $w")
wasm = rename_exports(wasm, rename_export)
if exports:
    longest_first = sorted(exports, key=len, reverse=True)
    pattern = r"(?<![\w$])(" + "|".join(map(re.escape, longest_first)) + r")(?![\w$])"
    js = re.sub(pattern, lambda m: exports[m.group(1)], js)
open(wasm_path, "wb").write(wasm)
open(js_path, "w", encoding="utf-8").write(js)
for name, before, after in ((wasm_name, old_wasm, wasm), (js_name, old_js, js.encode("utf-8"))):
    if sri(before) in html:
        html = html.replace(sri(before), sri(after))
    elif "integrity=" in html and name in html:
        sys.exit(f"short_names: no integrity hash of {name} to refresh in index.html")
open(index_path, "w", encoding="utf-8").write(html)
saved = len(old_wasm) + len(old_js) - len(wasm) - len(js.encode("utf-8"))
print(f"short_names: {len(mapping)} imports and {len(exports)} exports renamed ({saved} bytes fewer)")
