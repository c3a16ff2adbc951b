#!/usr/bin/env python3
"""Trunk post_build hook: the page's stylesheet arrives inside index.html.

A `<link rel=stylesheet>` blocks rendering until its own response is in: the static shell
(header, the stage's frame, the ring's empty track) could not paint before a second request
had come back, and the scripts after it waited too. Inline, the CSS comes with the HTML's
first bytes, so the shell paints as soon as the document is parsed. Measured (cold loads,
alternately with the plain-JS peer page, docs/PERFORMANCE.md "Issue 29, third session"):
first contentful paint 136 → 100 ms, the ring with its data 188 → 166 ms.

This replaces the stylesheet link Trunk wrote (minified, content-hashed CSS) by a `<style>`
element with the same text and deletes the now unused file, so nothing counts or serves it
twice. The CSP keeps `style-src 'self'` and gains the exact hash of this element
(tools/csp_hashes.py runs after this hook). The integrity hash the link carried is no longer
needed: the CSS is part of the document the CSP's hashes already pin.
"""
import os
import re
import sys

staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
path = os.path.join(staging, "index.html")
html = open(path, encoding="utf-8").read()

links = re.findall(r"<link(?=[^>]*\brel=\"?stylesheet\b)[^>]*>", html)
if len(links) != 1:
    sys.exit(f"inline_css: expected one stylesheet link in index.html, found {len(links)}")
tag = links[0]
href = re.search(r"\bhref=\"?\./([A-Za-z0-9._-]+\.css)", tag)
if not href:
    sys.exit(f"inline_css: the stylesheet link has no local href: {tag[:120]}")
css_path = os.path.join(staging, href.group(1))
css = open(css_path, encoding="utf-8").read()
if "</style" in css.lower():
    sys.exit("inline_css: the CSS contains '</style', which would end the element early")
html = html.replace(tag, "<style>" + css + "</style>", 1)
open(path, "w", encoding="utf-8").write(html)
os.remove(css_path)
print(f"inline_css: {href.group(1)} ({len(css)} bytes) inlined into index.html")
