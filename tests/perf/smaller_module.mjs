// What a smaller first wasm module would gain before the start (not a test: numbers vary
// by machine). A timing proxy for splitting the module, measured before building the split:
//
//   node tests/perf/smaller_module.mjs [--dist DIR] [--rounds N] [--keep-every K]
//
// Copies the built page and replaces every function body but each K-th (3 by default) with
// `unreachable`: the same imports, exports, table and data, about 40 % of the bytes. Then
// loads both pages alternately, each in a fresh Chromium (cold, 1440×900), and reports when
// the early script's compiled module is ready, from the fetch's start (the stub page then
// traps at its start; only the time to a compiled module is read).
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import binaryen from 'binaryen';
import { FEATURES } from '../../tools/wasm_features.mjs';
import { serveDist, openBrowser, closeBrowsers, dist as defaultDist } from '../e2e/harness.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const dist = path.resolve(arg('--dist', defaultDist));
const rounds = Number(arg('--rounds', '10'));
const keepEvery = Number(arg('--keep-every', '3'));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const small = mkdtempSync(path.join(tmpdir(), 'smaller-module-'));
cpSync(dist, small, { recursive: true });
const wasmName = readdirSync(small).find((f) => f.endsWith('_bg.wasm'));
const module = binaryen.readBinary(readFileSync(path.join(dist, wasmName)));
module.setFeatures(FEATURES);
const defined = [];
for (let k = 0; k < module.getNumFunctions(); k++) {
  const f = binaryen.getFunctionInfo(module.getFunctionByIndex(k));
  if (!f.module) defined.push(f);
}
defined.forEach((f, k) => {
  if (k % keepEvery === 0) return;
  module.removeFunction(f.name);
  module.addFunction(f.name, f.params, f.results, [], module.unreachable());
});
writeFileSync(path.join(small, wasmName), module.emitBinary());
module.dispose();
const bytes = (dir) => statSync(path.join(dir, wasmName)).size;

async function ready(origin) {
  const b = await openBrowser({ width: 1440, height: 900, fresh: true });
  try {
    await b.page.addInitScript(() => {
      let compiled;
      Object.defineProperty(window, 'hashringWasm', {
        configurable: true,
        get: () => compiled,
        set: (promise) => {
          const asked = performance.now();
          compiled = promise;
          promise.then(() => { window.moduleReady = performance.now() - asked; }, () => { window.moduleReady = -1; });
        },
      });
    });
    await b.page.goto(`${origin}/?nodes=A,B,C,D&keys=0..1000`);
    await b.page.waitForFunction(() => window.moduleReady !== undefined);
    return await b.page.evaluate(() => window.moduleReady);
  } finally {
    await b.context.close();
  }
}

const pages = { full: await serveDist(dist), small: await serveDist(small) };
const seen = { full: [], small: [] };
for (let i = 0; i < rounds; i++) {
  for (const who of i % 2 ? ['small', 'full'] : ['full', 'small']) seen[who].push(await ready(pages[who].origin));
}
console.log(JSON.stringify({
  rounds, keep_every: keepEvery,
  full: { wasm_bytes: bytes(dist), module_ready_ms: Math.round(median(seen.full)) },
  small: { wasm_bytes: bytes(small), module_ready_ms: Math.round(median(seen.small)) },
}, null, 2));
await pages.full.close();
await pages.small.close();
await closeBrowsers();
rmSync(small, { recursive: true });
