// In-browser page measurement (not a test: numbers vary by machine). Run: make bench.
// Measures, in headless Chromium against dist/: time to first painted ring, click → updated
// summary (and → the next frame) for Add/Remove at 50k and 1M keys, and wasm + js gzip size.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { serveDist, openBrowser, dist } from '../e2e/harness.mjs';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const nodes = Array.from({ length: 10 }, (_, i) => `s${i}`).join(',');

async function clickToUpdate(page, button) {
  return page.evaluate(async (name) => {
    const status = document.querySelector('[role=status]');
    const btn = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === name);
    const before = status.textContent;
    return new Promise((resolve) => {
      let t0;
      const obs = new MutationObserver(() => {
        if (status.textContent === before) return;
        const t1 = performance.now();
        obs.disconnect();
        requestAnimationFrame(() => resolve({ status: t1 - t0, frame: performance.now() - t0 }));
      });
      obs.observe(status, { childList: true, subtree: true, characterData: true });
      t0 = performance.now();
      btn.click();
    });
  }, button);
}

const server = await serveDist();
const results = { date: new Date().toISOString(), scenarios: [] };
try {
  for (const keys of [50_000, 1_000_000]) {
    const browser = await openBrowser();
    const { page } = browser;
    const url = `${server.origin}/?nodes=${nodes}&vnodes=200&keys=key-{i}:0..${keys}`;
    const firstPaint = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(url);
      await page.waitForFunction(() => performance.getEntriesByName('ring-painted').length > 0, null, { timeout: 60000 });
      firstPaint.push(await page.evaluate(() => performance.getEntriesByName('ring-painted')[0].startTime));
    }
    const add = [], remove = [];
    for (let i = 0; i < 5; i++) {
      add.push(await clickToUpdate(page, 'Add server'));
      remove.push(await clickToUpdate(page, 'Remove server'));
    }
    const row = {
      keys, servers: 10, vnodes: 200,
      first_ring_ms: median(firstPaint),
      add_to_summary_ms: median(add.map((r) => r.status)), add_to_frame_ms: median(add.map((r) => r.frame)),
      remove_to_summary_ms: median(remove.map((r) => r.status)), remove_to_frame_ms: median(remove.map((r) => r.frame)),
    };
    results.scenarios.push(row);
    console.log(JSON.stringify(row));
    await browser.context.close();
  }
} finally {
  await server.close();
}
let gz = 0;
for (const f of readdirSync(dist).filter((f) => /\.(wasm|js)$/.test(f))) gz += gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length;
results.wasm_js_gzip_bytes = gz;
console.log(`wasm + js gzip: ${(gz / 1024).toFixed(1)} KB`);
mkdirSync('docs', { recursive: true });
writeFileSync('docs/page-measurements.json', JSON.stringify(results, null, 2) + '\n');
console.log('wrote docs/page-measurements.json');
