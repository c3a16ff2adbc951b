#!/usr/bin/env python3
"""Trunk post_build hook: put the SHA-256 of every inline <script> into the page's CSP.

index.html carries `'sha256-INLINE-SCRIPTS'` in its Content-Security-Policy; Trunk adds an
inline module script that loads the wasm. We replace the placeholder with that script's
exact hash, so the page runs under `script-src 'self'` without 'unsafe-inline'.
"""
import base64
import hashlib
import os
import re
import sys

staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
path = os.path.join(staging, "index.html")
html = open(path, encoding="utf-8").read()
scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, flags=re.S)
hashes = " ".join(
    "'sha256-%s'" % base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode()
    for s in scripts
)
if "'sha256-INLINE-SCRIPTS'" not in html:
    sys.exit("csp_hashes: index.html has no 'sha256-INLINE-SCRIPTS' placeholder")
html = html.replace("'sha256-INLINE-SCRIPTS'", hashes or "")
open(path, "w", encoding="utf-8").write(html)
print(f"csp_hashes: {len(scripts)} inline script(s) hashed into the CSP")
