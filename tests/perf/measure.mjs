// In-browser page measurement (not a test: numbers vary by machine). Run: make bench.
// Measures, in headless Chromium against dist/: time to first painted ring, click → updated
// summary (and → the next frame) for Add/Remove at 50k and 1M keys, and wasm + js gzip size.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { serveDist, openBrowser, dist } from '../e2e/harness.mjs';

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const p95 = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]; };

/** Frame-to-frame times (ms) for `ms` milliseconds, optionally after clicking a button. */
async function frameTimes(page, ms, button) {
  return page.evaluate(async ({ ms, button }) => {
    const times = [];
    if (button) [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === button).click();
    const start = performance.now();
    await new Promise((done) => {
      const tick = (t) => { times.push(t); if (t - start < ms) requestAnimationFrame(tick); else done(); };
      requestAnimationFrame(tick);
    });
    return times.slice(1).map((t, i) => t - times[i]);
  }, { ms, button });
}
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
    // Frames while the moved keys (up to 2,000 dots) walk after an Add, and while the
    // idle stream plays.
    const walking = await frameTimes(page, 1500, 'Add server');
    await page.evaluate(() => [...document.querySelectorAll('button')].find((b) => b.textContent.includes('Play')).click());
    const playing = await frameTimes(page, 1500, null);
    const row = {
      keys, servers: 10, vnodes: 200,
      walk_frame_median_ms: median(walking), walk_frame_p95_ms: p95(walking),
      play_frame_median_ms: median(playing), play_frame_p95_ms: p95(playing),
      first_ring_ms: median(firstPaint),
      add_to_summary_ms: median(add.map((r) => r.status)), add_to_frame_ms: median(add.map((r) => r.frame)),
      remove_to_summary_ms: median(remove.map((r) => r.status)), remove_to_frame_ms: median(remove.map((r) => r.frame)),
    };
    results.scenarios.push(row);
    console.log(JSON.stringify(row));
    await browser.context.close();
  }
} catch (e) {
  await server.close();
  throw e;
}
// Each algorithm at 1M keys: switching to it and adding a server (click → summary, as
// Playwright sees it; per-key algorithms step with a progress bar).
{
  const browser = await openBrowser();
  const { page } = browser;
  await page.goto(`${server.origin}/?nodes=${nodes}&vnodes=200&keys=key-{i}:0..1000000`);
  await page.waitForFunction(() => performance.getEntriesByName('ring-painted').length > 0, null, { timeout: 60000 });
  results.algorithms_1m = [];
  for (const algo of ['modn', 'rendezvous', 'carp', 'slots', 'ring']) {
    const t0 = Date.now();
    await page.selectOption('#algo', algo);
    await page.waitForFunction((a) => document.querySelector('[role=status]').textContent.includes(`Switched to ${a}`), algo, { timeout: 120000 });
    const t1 = Date.now();
    await page.getByRole('button', { name: 'Add server' }).click();
    await page.waitForFunction(() => /^Added /.test(document.querySelector('[role=status]').textContent), null, { timeout: 120000 });
    const row = { algo, switch_ms: t1 - t0, add_ms: Date.now() - t1 };
    await page.getByRole('button', { name: 'Remove server', exact: true }).click();
    await page.waitForFunction(() => /^Removed /.test(document.querySelector('[role=status]').textContent), null, { timeout: 120000 });
    results.algorithms_1m.push(row);
    console.log(JSON.stringify(row));
  }
  await browser.context.close();
}
await server.close();
let gz = 0;
for (const f of readdirSync(dist).filter((f) => /\.(wasm|js)$/.test(f))) gz += gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length;
results.wasm_js_gzip_bytes = gz;
console.log(`wasm + js gzip: ${(gz / 1024).toFixed(1)} KB`);
mkdirSync('docs', { recursive: true });
writeFileSync('docs/page-measurements.json', JSON.stringify(results, null, 2) + '\n');
console.log('wrote docs/page-measurements.json');
