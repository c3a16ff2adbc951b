// The first page end to end: the ring is painted, Add/Remove server change the table,
// counts always sum to the keys, no console errors, no request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, openBrowser, ready, tableCounts, paintedPixels, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await openBrowser(); });
after(async () => { await browser?.context.close(); await server?.close(); });

const sum = (rows) => rows.reduce((a, r) => a + r.keys, 0);

test('the ring is painted and the table holds every key', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/`);
  await ready(page);
  const painted = await paintedPixels(page, 'canvas.ring');
  const { width, height } = await page.$eval('canvas.ring', (c) => ({ width: c.width, height: c.height }));
  assert.ok(painted > width * height * 0.03, `ring canvas mostly blank: ${painted} of ${width * height}`);
  assert.ok(await paintedPixels(page, 'canvas.load') > 1000, 'chart canvas is blank');
  const rows = await tableCounts(page);
  assert.deepEqual(rows.map((r) => r.name), ['A', 'B', 'C', 'D']);
  assert.equal(sum(rows), 1000);
  await screenshot(page, '01-default');
});

test('Add server adds a row, moves keys only to it, and keeps the total', async () => {
  const { page } = browser;
  const before = await tableCounts(page);
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.waitForFunction((n) => document.querySelectorAll('table.counts tbody tr').length === n, before.length + 1);
  const after = await tableCounts(page);
  assert.equal(after.at(-1).name, 'E');
  assert.equal(sum(after), 1000);
  // Consistent hashing: every old server lost keys or kept them; none gained.
  for (const row of before) {
    const now = after.find((r) => r.name === row.name);
    assert.ok(now.keys <= row.keys, `${row.name} gained keys: ${row.keys} -> ${now.keys}`);
  }
  const summary = await page.textContent('[role=status]');
  assert.match(summary, /^Added E: [\d,]+ of 1,000 keys moved \(\d+\.\d%; ideal 20\.0%\)/);
  await screenshot(page, '02-added-E');
});

test('Remove server removes the last row and keeps the total', async () => {
  const { page } = browser;
  await page.getByRole('button', { name: 'Remove server', exact: true }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 4);
  const rows = await tableCounts(page);
  assert.deepEqual(rows.map((r) => r.name), ['A', 'B', 'C', 'D']);
  assert.equal(sum(rows), 1000);
  assert.match(await page.textContent('[role=status]'), /^Removed E: /);
  await screenshot(page, '03-removed-E');
});

test('no console errors and no request beyond 127.0.0.1', () => {
  assert.deepEqual(browser.problems.console, []);
  assert.deepEqual(browser.problems.outside, []);
});

// The budget: the page a reader downloads — index.html and the wasm, js and css it loads —
// is at most 330 KB gzip (-9), counted as tools/size.sh and tests/perf/measure.mjs count it
// (300 KB until issue 29 made room for the pictures and real systems to come).
test('the page is at most 330 KB gzip, and its loader names what it loads', async () => {
  const { readFileSync } = await import('node:fs');
  const { gzipSync } = await import('node:zlib');
  const path = await import('node:path');
  const { dist } = await import('./harness.mjs');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const assets = ['index.html', ...new Set([...html.matchAll(/\.\/([A-Za-z0-9._-]+\.(?:wasm|js|css))/g)].map((m) => m[1]))];
  assert.ok(assets.some((f) => f.endsWith('.wasm')) && assets.some((f) => f.endsWith('.js')) && assets.some((f) => f.endsWith('.css')), assets.join());
  const sizes = assets.map((f) => [f, gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length]);
  const total = sizes.reduce((a, [, n]) => a + n, 0);
  assert.ok(total <= 330 * 1024, `page ${(total / 1024).toFixed(1)} KB gzip: ${JSON.stringify(sizes)}`);
});
