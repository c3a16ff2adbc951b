#!/usr/bin/env node
// Builds the page into dist/: what `trunk build --release` did with Trunk.toml, without
// Trunk. Trunk is a 5–7 minute compile on a fresh 2-core machine (most of it its own HTML,
// CSS and JS minifiers, swc, lightningcss and minify-html), for a build whose real work is
// four commands; here the same minifiers come prebuilt from npm, at the versions Trunk
// 0.22 links, and the steps are these:
//
//   1. cargo builds the `data-bin` of index.html's `<link data-trunk rel="rust">` for
//      wasm32 in its `data-cargo-profile` (wasm-release), with the lock file (not offline,
//      as Trunk.toml's `offline` had it: in `make test` this build starts beside `make
//      lint`, before anything else has fetched the crates);
//   2. wasm-bindgen (the pinned CLI, tools/versions.env) writes the JS glue for `--target web`;
//   3. wasm-opt (npm's binaryen) runs `-O<data-wasm-opt>` and the link's `data-wasm-opt-params`;
//   4. the glue is minified (swc), the `rel="css"` stylesheet too (lightningcss), the
//      `rel="copy-file"` files are copied, and every output file is named with a hash of its
//      content (`hashring-lab-<16 hex>_bg.wasm`), so a browser never pairs a stale glue with
//      a new wasm;
//   5. index.html gets the stylesheet link, the preload links with their integrity hashes and
//      the module script that starts the app, in Trunk's form, and is minified (minify-html);
//   6. Trunk.toml's post_build hook runs on the staging folder (order_functions.mjs,
//      short_names.py, wasm_early.py, inline_assets.py, csp_hashes.py: see Trunk.toml);
//   7. the staging folder replaces dist/ whole, so a build that stops half-way leaves the
//      last good page.
//
// index.html and Trunk.toml stay the build's one description: `trunk build --release`
// still makes the same page for whoever has Trunk (and `trunk serve`'s live reload).
//
//   node tools/build_page.mjs [DIST]   (DIST defaults to dist; run with target/tools/wasm.env
//                                       and page.env sourced, as the Makefile does)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import swc from '@swc/core';
import { transform as transformCss } from 'lightningcss';
import minifyHtml from '@minify-html/node';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// npm's binaryen (wasm-opt) first, then cargo's tools (wasm-bindgen), as tools/setup.sh installs them.
const cargoBin = path.join(process.env.CARGO_HOME || path.join(process.env.HOME || '', '.cargo'), 'bin');
process.env.PATH = [path.join(root, 'node_modules', '.bin'), cargoBin, process.env.PATH].join(path.delimiter);
const dist = path.resolve(root, process.argv[2] || 'dist');
const staging = `${dist}.staging`;
const say = (what) => console.log(`build_page: ${what}`);
const fail = (why) => {
  console.error(`build_page: ${why}`);
  process.exit(1);
};
const run = (command, args, env = process.env) => {
  say([command, ...args.map((a) => path.relative(root, a) || a)].join(' '));
  try {
    execFileSync(command, args, { cwd: root, stdio: 'inherit', env });
  } catch (e) {
    fail(`${command} failed (${e.code === 'ENOENT' ? 'not found: tools/setup.sh build installs it' : e.signal || `exit ${e.status}`})`);
  }
};

// The `<link data-trunk …>` elements of index.html, with their attributes.
const source = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
const links = [...source.matchAll(/<link\s+data-trunk\b[^>]*>/g)].map((m) => {
  const attrs = Object.fromEntries([...m[0].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
  return { tag: m[0], attrs };
});
const rustLinks = links.filter((l) => l.attrs.rel === 'rust');
if (rustLinks.length !== 1) fail(`index.html needs one <link data-trunk rel="rust">, has ${rustLinks.length}`);
const rust = rustLinks[0].attrs;
const bin = rust['data-bin'];
const profile = rust['data-cargo-profile'];
if (!bin || !profile) fail('the rust link needs data-bin and data-cargo-profile');
const optParams = (rust['data-wasm-opt-params'] || '').split(/\s+/).filter(Boolean);
for (const l of links) {
  if (!['rust', 'css', 'copy-file'].includes(l.attrs.rel)) fail(`index.html: rel="${l.attrs.rel}" is not a link this build knows`);
}

fs.rmSync(staging, { recursive: true, force: true });
fs.mkdirSync(staging, { recursive: true });
const work = path.join(staging, '.work');
fs.mkdirSync(work);

// 1–3. The wasm and its glue.
run('cargo', ['build', '--target=wasm32-unknown-unknown', '--profile', profile, '--bin', bin, '--locked']);
const targetDir = path.resolve(root, process.env.CARGO_TARGET_DIR || 'target');
const built = path.join(targetDir, 'wasm32-unknown-unknown', profile, `${bin}.wasm`);
if (!fs.existsSync(built)) fail(`cargo built no ${path.relative(root, built)}`);
run('wasm-bindgen', ['--target=web', `--out-dir=${work}`, `--out-name=${bin}`, '--no-typescript', built]);
const bound = path.join(work, `${bin}_bg.wasm`);
const optimised = path.join(work, 'opt.wasm');
if (rust['data-wasm-opt'] && rust['data-wasm-opt'] !== '0') {
  run('wasm-opt', [`--output=${optimised}`, `-O${rust['data-wasm-opt']}`, bound, ...optParams]);
} else {
  fs.copyFileSync(bound, optimised);
}

// 4. Hashed names, minified glue and stylesheet, copied files.
const hashOf = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
const integrity = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
const wasmBytes = fs.readFileSync(optimised);
const base = `${bin}-${hashOf(wasmBytes)}`;
const wasmName = `${base}_bg.wasm`;
const jsName = `${base}.js`;
fs.writeFileSync(path.join(staging, wasmName), wasmBytes);
const glue = fs.readFileSync(path.join(work, `${bin}.js`), 'utf8');
const jsCode = swc.minifySync(glue, { compress: { toplevel: false }, mangle: { topLevel: false }, module: true }).code;
fs.writeFileSync(path.join(staging, jsName), jsCode);

let html = source;
for (const l of links) {
  if (l.attrs.rel === 'copy-file') {
    fs.copyFileSync(path.join(root, l.attrs.href), path.join(staging, path.basename(l.attrs.href)));
    html = html.replace(l.tag, '');
  } else if (l.attrs.rel === 'css') {
    const file = path.join(root, l.attrs.href);
    const { code } = transformCss({ filename: file, code: fs.readFileSync(file), minify: true });
    const name = `${path.basename(file, '.css')}-${hashOf(code)}.css`;
    fs.writeFileSync(path.join(staging, name), code);
    html = html.replace(l.tag, `<link rel="stylesheet" href="./${name}" integrity="${integrity(code)}"/>`);
  }
}

// 5. The loader and its preload links, as Trunk writes them; then the page minified.
const loader = `<script type="module">
import init, * as bindings from './${jsName}';
const wasm = await init({ module_or_path: './${wasmName}' });
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent("TrunkApplicationStarted", {detail: {wasm}}));
</script>`;
html = html.replace(rustLinks[0].tag, loader);
const preloads =
  `<link rel="modulepreload" href="./${jsName}" crossorigin="anonymous" integrity="${integrity(jsCode)}">` +
  `<link rel="preload" href="./${wasmName}" crossorigin="anonymous" integrity="${integrity(wasmBytes)}" as="fetch" type="application/wasm">`;
if (html.split('</head>').length !== 2) fail('index.html has no single </head>');
html = html.replace('</head>', `${preloads}</head>`);
html = minifyHtml.minify(Buffer.from(html), { keep_closing_tags: true, minify_css: true, minify_js: true });
fs.writeFileSync(path.join(staging, 'index.html'), html);
fs.rmSync(work, { recursive: true });

// 6. Trunk.toml's post_build hook, in the staging folder.
const trunkToml = fs.readFileSync(path.join(root, 'Trunk.toml'), 'utf8');
const hook = trunkToml.match(/\[\[hooks\]\]\s*stage\s*=\s*"post_build"\s*command\s*=\s*"([^"]+)"\s*command_arguments\s*=\s*(\[[^\]]*\])/);
if (!hook) fail('Trunk.toml has no post_build hook in the form this build reads');
run(hook[1], JSON.parse(hook[2]), { ...process.env, TRUNK_STAGING_DIR: staging, TRUNK_PROFILE: 'release' });

// 7. The new page replaces the old one whole.
const old = `${dist}.old`;
fs.rmSync(old, { recursive: true, force: true });
if (fs.existsSync(dist)) fs.renameSync(dist, old);
fs.renameSync(staging, dist);
fs.rmSync(old, { recursive: true, force: true });
say(`${path.relative(root, dist)}/ written (${wasmName})`);
