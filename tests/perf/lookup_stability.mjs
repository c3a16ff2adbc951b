// How stable the compare view's ns/lookup column is across reloads: opens the compare
// view of the default scenario three times in a fresh headless Chromium and reports, per
// algorithm, the three values and their spread ((max − min) / median). A measurement, not a
// test: its numbers go to docs/lookup-stability.json and docs/PERFORMANCE.md.
//   node tests/perf/lookup_stability.mjs [--runs N] [--out FILE]
import { writeFileSync } from 'node:fs';
import { serveDist, openBrowser } from '../e2e/harness.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const runs = Number(arg('--runs', '3'));
const out = arg('--out', 'docs/lookup-stability.json');

const server = await serveDist();
const browser = await openBrowser({ fresh: true, width: 1440, height: 900 });
const values = {};
try {
  for (let run = 0; run < runs; run++) {
    await browser.page.goto(`${server.origin}/?view=compare&lang=en`);
    // Every registered algorithm's row is in and timed (its ns cell a number, not "…").
    await browser.page.waitForFunction(() => document.querySelector('.compare .verdict')
      && [...document.querySelectorAll('table.compared td.ns')].every((td) => /^[\d,.]+$/.test(td.textContent)),
    null, { timeout: 300000 });
    const rows = await browser.page.$$eval('table.compared tbody tr', (trs) => trs.map((tr) => [
      tr.dataset.algo, Number(tr.querySelector('td.ns').textContent.replace(/,/g, '')),
    ]));
    for (const [algo, ns] of rows) (values[algo] ||= []).push(ns);
  }
} finally {
  await browser.context.close();
  await server.close();
}
const report = Object.entries(values).map(([algo, ns]) => {
  const sorted = [...ns].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return { algo, ns, spread: median > 0 ? (sorted.at(-1) - sorted[0]) / median : 0 };
});
for (const r of report) console.log(`${r.algo.padEnd(12)} ${r.ns.join(' / ').padEnd(24)} spread ${(100 * r.spread).toFixed(0)}%`);
console.log(`largest spread: ${(100 * Math.max(...report.map((r) => r.spread))).toFixed(0)}%`);
writeFileSync(out, JSON.stringify({ runs, chromium: 'headless', report }, null, 2) + '\n');
