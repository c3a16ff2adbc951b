#!/usr/bin/env python3
"""Trunk post_build hook: start the wasm's download and compilation at the top of the page.

Trunk's loader is a module script: it runs only once the document is parsed and the
stylesheet has arrived, and only then asks for the wasm — the preloaded bytes wait for it,
and their compilation starts late. This hook puts a small inline script in <head>, before
the stylesheet, that fetches the wasm and compiles it while it downloads and while the
stylesheet, the JS glue and the shell's first frame go by; the loader then instantiates
the compiled module (wasm-bindgen's init accepts a promise of a `WebAssembly.Module`).
Trunk's `<link rel=preload>` for the wasm goes: the script's fetch replaces it.
Measured in docs/PERFORMANCE.md ("The first paint: the wasm compiled while the page loads").

The fetch carries no integrity hash, on purpose: with one, the browser hands the response
over only once the whole body is in and hashed, so the compilation could not start before
the last byte (a trace: streaming began 4 ms after the download ended, not when it began).
The wasm is same-origin (the CSP's connect-src 'self') and its file name carries its content
hash (Trunk's filehash), so a stale or mixed deployment still cannot pair it with the wrong
glue; whoever could alter it on the server could alter index.html and its hashes as well.
The CSS and the JS glue are inline (tools/inline_assets.py), pinned by the CSP's hashes.

A server that does not send `application/wasm` still works: the bytes are then compiled
from an ArrayBuffer, as wasm-bindgen's own fallback does. Runs after every hook that
rewrites the wasm (its name is final), before tools/inline_assets.py (which replaces the
stylesheet link this script is put before, and the loader) and before tools/csp_hashes.py, which
hashes this script into the CSP like the loader.
"""
import os
import re
import sys

staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
path = os.path.join(staging, "index.html")
html = open(path, encoding="utf-8").read()

preload = re.search(r"<link(?=[^>]*\brel=preload\b)(?=[^>]*\bas=fetch\b)[^>]*>", html)
if not preload:
    sys.exit("wasm_early: no preload link for the wasm in index.html")
tag = preload.group(0)
href = re.search(r"\bhref=\"?([^\s\">]+\.wasm)", tag)
if not href:
    sys.exit(f"wasm_early: the preload link has no wasm href: {tag[:120]}")
url = href.group(1)

loader = re.compile(r"module_or_path:\s*([`'\"])" + re.escape(url) + r"\1")
if len(loader.findall(html)) != 1:
    sys.exit(f"wasm_early: the loader does not name {url} exactly once")

early = (
    "<script>window.hashringWasm=fetch(%r).then(function(r){"
    "if(!r.ok)throw Error(r.status+' fetching '+r.url);"
    "return/^application\\/wasm\\b/.test(r.headers.get('content-type')||'')"
    "?WebAssembly.compileStreaming(r)"
    ":r.arrayBuffer().then(function(b){return WebAssembly.compile(b)})})</script>"
) % url
html = html.replace(tag, "", 1)
html = loader.sub("module_or_path:window.hashringWasm", html)
first_link = html.find("<link")
if first_link < 0:
    sys.exit("wasm_early: no <link> in index.html to put the script before")
html = html[:first_link] + early + html[first_link:]
open(path, "w", encoding="utf-8").write(html)
print(f"wasm_early: {url} fetched and compiled from <head>")
