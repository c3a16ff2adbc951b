#!/usr/bin/env python3
"""Trunk post_build hook: the page's CSS and JS glue arrive inside index.html.

Every file the first paint waits for costs a request, and this page's first paint is
bound by the CPU, not the wire: the browser, its network service, the server and the page
share a few cores while the wasm streams in. Two requests are gone:

- The stylesheet. A `<link rel=stylesheet>` blocks rendering until its own response is in:
  the static shell (header, the stage's frame, the ring's empty track) could not paint
  before a second response had come back. Inline, the CSS comes with the HTML's first
  bytes. Cold loads alternating with the plain-JS peer page (docs/PERFORMANCE.md, "Issue
  29, third session"): first contentful paint 160 → 128 ms, the ring with its data
  233 → 202 ms.
- wasm-bindgen's JS glue (Trunk's `<link rel=modulepreload>` and the loader's `import`).
  Its code now is the loader's own module script, which goes to the end of <body>: it is
  compiled after the shell's markup is parsed, and runs (as every module script) once the
  document is. The ring with its data 206 → 185 ms, first contentful paint unchanged.

The CSS goes into a `<style>` in place of the link; the glue's one export statement
(`export{initSync,__wbg_init as default}`) is dropped and the loader calls `__wbg_init`
itself, keeping what Trunk's loader gave the page: `window.wasmBindings` (the glue's
exports) and the `TrunkApplicationStarted` event with the wasm's exports. Both files are
deleted, so nothing counts or serves them twice. The CSP keeps `'self'` and gains the exact
hashes of the new inline elements (tools/csp_hashes.py runs after this hook), which pin
their text as the integrity hashes on the links did.

Runs after tools/wasm_early.py (which points the loader at the early-compiled module).
"""
import os
import re
import sys

staging = os.environ.get("TRUNK_STAGING_DIR") or (sys.argv[1] if len(sys.argv) > 1 else "dist")
path = os.path.join(staging, "index.html")
html = open(path, encoding="utf-8").read()


def fail(why):
    sys.exit(f"inline_assets: {why}")


def only(pattern, what):
    """The one match of `pattern` in index.html (the hook refuses a page it does not know)."""
    found = list(re.finditer(pattern, html, flags=re.S))
    if len(found) != 1:
        fail(f"expected one {what} in index.html, found {len(found)}")
    return found[0]


def take(name):
    """The text of the built file `name`, which is deleted: it is inline from now on."""
    file = os.path.join(staging, name)
    text = open(file, encoding="utf-8").read()
    os.remove(file)
    return text


def inline(opening, text):
    """`text` as the content of the element `opening` starts (`<style>`, `<script ...>`)."""
    tag = re.match(r"<(\w+)", opening).group(1)
    if re.search(r"</%s" % tag, text, flags=re.I):
        fail(f"the text contains '</{tag}', which would end the element early")
    if tag == "script" and "<!--" in text:
        fail("the script contains '<!--', which can make the HTML parser miss its end")
    return f"{opening}{text}</{tag}>"


# The stylesheet, in place.
link = only(r"<link(?=[^>]*\brel=\"?stylesheet\b)[^>]*>", "stylesheet link")
css = re.search(r"\bhref=\"?\./([A-Za-z0-9._-]+\.css)", link.group(0))
if not css:
    fail(f"the stylesheet link has no local href: {link.group(0)[:120]}")
html = html.replace(link.group(0), inline("<style>", take(css.group(1))), 1)

# The glue, as the loader's own code, at the end of <body>.
loader = only(r"<script type=\"?module\"?>(.*?)</script>", "module script")
glue_name = only(r"<link(?=[^>]*\brel=\"?modulepreload\b)[^>]*>", "modulepreload link")
js = re.search(r"\bhref=\"?\./([A-Za-z0-9._-]+\.js)", glue_name.group(0))
if not js or f"./{js.group(1)}" not in loader.group(1):
    fail("the loader does not import the preloaded glue")
source = loader.group(1)
early = re.search(r"module_or_path:(window\.hashringWasm)", source)
if not early:
    fail("the loader does not take the early-compiled module (tools/wasm_early.py first)")
glue = take(js.group(1))
export = "export{initSync,__wbg_init as default};"
if not glue.rstrip().endswith(export) or re.search(r"(^|[;}])\s*(import|export)\b(?![.(])", glue.rstrip()[: -len(export)]):
    fail("the glue does not end with its one export statement, or has another import/export")
# When the wasm cannot be fetched, compiled or started (blocked by the browser or its
# settings, a failed download, a start that traps), the shell would stay on screen with an
# empty ring and nothing said: the shell says the page could not start, why in a few words,
# and offers to reload — in Chinese when the link or the browser asks for it.
failed = (
    "function hashringFailed(e){var s=document.getElementById('shell');if(!s)return;"
    "var l=new URLSearchParams(location.search).get('lang')||navigator.language||'',zh=/^zh/i.test(l),"
    "why=String(e&&e.message||e).slice(0,160),w=s.querySelector('.ring-wrap')||s,"
    "d=document.createElement('div'),p=document.createElement('p'),c=document.createElement('p'),b=document.createElement('button');"
    "s.setAttribute('aria-busy','false');d.className='start-failed';d.setAttribute('role','alert');"
    "p.textContent=zh?'hashring-lab \u65e0\u6cd5\u542f\u52a8\u3002':'hashring-lab could not start.';"
    "c.textContent=zh?'\u5b83\u7684 WebAssembly \u672a\u80fd\u52a0\u8f7d\u6216\u8fd0\u884c\uff08'+why+'\uff09\u3002\u8bf7\u786e\u8ba4\u6d4f\u89c8\u5668\u5141\u8bb8 WebAssembly\u3001\u7f51\u7edc\u6b63\u5e38\uff0c\u7136\u540e\u91cd\u65b0\u52a0\u8f7d\u3002'"
    ":'Its WebAssembly did not load or run ('+why+'). It needs a browser that allows WebAssembly and a working connection to this site; check them, then reload.';"
    "b.type='button';b.textContent=zh?'\u91cd\u65b0\u52a0\u8f7d':'Reload';b.addEventListener('click',function(){location.reload()});"
    "d.append(p,c,b);w.replaceChildren(d)}"
)
code = (
    glue.rstrip()[: -len(export)]
    + failed
    + "try{await __wbg_init({module_or_path:%s})}catch(e){hashringFailed(e);throw e}" % early.group(1)
    + "window.wasmBindings={initSync,default:__wbg_init};"
    + 'dispatchEvent(new CustomEvent("TrunkApplicationStarted",{detail:{wasm}}));'
)
html = html.replace(loader.group(0), "", 1).replace(glue_name.group(0), "", 1)
if html.count("</body>") != 1:
    fail("index.html has no single </body>")
html = html.replace("</body>", inline("<script type=module>", code) + "</body>")
open(path, "w", encoding="utf-8").write(html)
print(f"inline_assets: {css.group(1)} and {js.group(1)} inlined into index.html")
