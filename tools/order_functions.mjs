#!/usr/bin/env node
// Trunk post_build hook: lays the wasm's functions out so that gzip finds more of each one
// in the functions just before it — grouped by signature (results, then parameters) and,
// within a signature, from the smallest body to the largest. Nothing else changes: binaryen
// reads the module, takes each function out and puts it back in the new order (calls,
// exports and the element table name functions, not positions), and wasm-opt writes it
// with the optimised stack IR its -Oz run wrote (`--shrink-level=2 --optimize-level=2`, no
// passes). The order that LLVM and wasm-opt leave is by crate and source file, which puts
// a yew component's hundreds of near-identical closures far apart; grouped, the page is
// 6.4 KB gzip smaller (docs/PERFORMANCE.md, "Room for Ceph").
//
// Usage: node tools/order_functions.mjs [STAGING_DIR]   (Trunk sets TRUNK_STAGING_DIR)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import binaryen from 'binaryen';
import { FEATURES, FEATURE_FLAGS } from './wasm_features.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const staging = process.env.TRUNK_STAGING_DIR || process.argv[2] || 'dist';
const wasmPath = path.join(staging, readFileSync(path.join(staging, 'index.html'), 'utf8').match(/\.\/([A-Za-z0-9._-]+_bg\.wasm)/)[1]);

/** An unsigned LEB128 at `i`: [value, next index]. */
function leb(bytes, i) {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const b = bytes[i++];
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return [value, i];
  }
}

/** The size of each function body in the code section, in order. */
function bodySizes(bytes) {
  const sizes = [];
  let i = 8;
  while (i < bytes.length) {
    const id = bytes[i++];
    let length;
    [length, i] = leb(bytes, i);
    if (id === 10) {
      let [count, j] = leb(bytes, i);
      for (; count > 0; count--) {
        let size;
        [size, j] = leb(bytes, j);
        sizes.push(size);
        j += size;
      }
    }
    i += length;
  }
  return sizes;
}

const before = readFileSync(wasmPath);
const sizes = bodySizes(before);
const module = binaryen.readBinary(before);
// Read and written with the page's own features (tools/wasm_features.mjs).
module.setFeatures(FEATURES);
const functions = [];
for (let k = 0; k < module.getNumFunctions(); k++) {
  functions.push(binaryen.getFunctionInfo(module.getFunctionByIndex(k)));
}
const defined = functions.filter((f) => !f.module);
if (defined.length !== sizes.length) {
  throw new Error(`${defined.length} functions but ${sizes.length} bodies in ${wasmPath}`);
}
defined.forEach((f, k) => { f.size = sizes[k]; });
// Stable: equal keys keep the order they had.
const ordered = [...defined].sort((a, b) => (a.results - b.results) || (a.params - b.params) || (a.size - b.size));
for (const f of defined) module.removeFunction(f.name);
for (const f of ordered) module.addFunction(f.name, f.params, f.results, f.vars, f.body);
if (!module.validate()) throw new Error('the reordered module does not validate');
const unwritten = `${wasmPath}.ordered`;
writeFileSync(unwritten, module.emitBinary());
module.dispose();
const wasmOpt = path.join(root, 'node_modules', '.bin', 'wasm-opt');
execFileSync(wasmOpt, [unwritten, '--shrink-level=2', '--optimize-level=2', ...FEATURE_FLAGS, '-o', wasmPath],
  { stdio: ['ignore', 'ignore', 'pipe'] });
rmSync(unwritten);
// The integrity hash Trunk wrote for the wasm in index.html, refreshed.
const after = readFileSync(wasmPath);
const sri = (data) => `sha384-${createHash('sha384').update(data).digest('base64')}`;
const indexPath = path.join(staging, 'index.html');
const index = readFileSync(indexPath, 'utf8');
if (!index.includes(sri(before))) throw new Error(`no integrity hash of ${wasmPath} in index.html`);
writeFileSync(indexPath, index.split(sri(before)).join(sri(after)));
console.log(`order_functions: ${defined.length} functions grouped by signature and size`);
