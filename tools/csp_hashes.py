#!/usr/bin/env python3
"""Trunk post_build hook: put the SHA-256 of every inline <script> and <style> into the CSP.

index.html carries `'sha256-INLINE-SCRIPTS'` and `'sha256-INLINE-STYLES'` in its
Content-Security-Policy; the hooks before this one put inline an early wasm fetch
(tools/wasm_early.py), the page's CSS and the loader with wasm-bindgen's JS glue
(tools/inline_assets.py). We replace each placeholder with those elements' exact hashes, so the
page runs under `script-src 'self'` and `style-src 'self'` without 'unsafe-inline'.
"""
import base64
import hashlib
import os
import re
import sys

staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
path = os.path.join(staging, "index.html")
html = open(path, encoding="utf-8").read()


def hashes(tag):
    """The CSP source expressions for the contents of every inline `tag` element."""
    bodies = re.findall(r"<%s(?![^>]*\bsrc=)[^>]*>(.*?)</%s>" % (tag, tag), html, flags=re.S)
    return len(bodies), " ".join(
        "'sha256-%s'" % base64.b64encode(hashlib.sha256(b.encode("utf-8")).digest()).decode()
        for b in bodies
    )


counts = []
for tag, placeholder in (("script", "'sha256-INLINE-SCRIPTS'"), ("style", "'sha256-INLINE-STYLES'")):
    if placeholder not in html:
        sys.exit(f"csp_hashes: index.html has no {placeholder} placeholder")
    n, sources = hashes(tag)
    html = html.replace(placeholder, sources)
    counts.append(f"{n} inline {tag}(s)")
open(path, "w", encoding="utf-8").write(html)
print(f"csp_hashes: {' and '.join(counts)} hashed into the CSP")
