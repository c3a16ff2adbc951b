// The compare view over the largest tables (issue 53): Ceph at pg_num 1,000,003 and Maglev
// at a table of 1,000,003, and the longest main-thread tasks while the comparison runs (a
// `PerformanceObserver` on long tasks). `make dist` first; then
//   node tests/perf/compare_tables.mjs
import { serveDist, openBrowser } from '../e2e/harness.mjs';

const server = await serveDist();
const { page, context } = await openBrowser({ width: 1440, height: 900 });
await page.addInitScript(() => {
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([Math.round(e.duration), Math.round(e.startTime)]); })
    .observe({ type: 'longtask', buffered: true });
});
for (const query of ['algo=ceph&pg_num=1000003', 'algo=maglev&table=1000003']) {
  const t0 = Date.now();
  await page.goto(`${server.origin}/?lang=en&${query}&view=compare`);
  await page.waitForFunction(() => document.querySelectorAll('table.compared tbody tr').length >= 27 && !document.querySelector('.compare-head progress'), null, { timeout: 300000 });
  const tasks = (await page.evaluate(() => window.__long.splice(0))).sort((a, b) => b[0] - a[0]);
  console.log(`${query}: compared in ${Date.now() - t0} ms, longest tasks ${JSON.stringify(tasks.slice(0, 4).map((t) => t[0]))} ms`);
}
await context.close?.();
await server.close?.();
process.exit(0);
