// The largest Ceph pools in the page: load, then an Add server, and the longest main-thread
// task of each (a `PerformanceObserver` on long tasks). `make dist` first; then
//   node tests/perf/ceph_pool.mjs
// (its numbers: `git log -- docs/PERFORMANCE.md`, "A large Ceph pool, in steps").
import { serveDist, openBrowser, ready } from '../e2e/harness.mjs';

const server = await serveDist();
const { page, context } = await openBrowser({ width: 1440, height: 900 });
await page.addInitScript(() => {
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(Math.round(e.duration)); })
    .observe({ type: 'longtask', buffered: true });
});
const settled = () => page.waitForFunction(() => !document.querySelector('.summary progress'), null, { timeout: 300000 });
const longest = async () => (await page.evaluate(() => window.__long.splice(0))).sort((a, b) => b - a).slice(0, 3);
for (const [groups, keys] of [[65536, 1000000], [1000003, 1000]]) {
  const t0 = Date.now();
  await page.goto(`${server.origin}/?lang=en&algo=ceph&pg_num=${groups}&nodes=n{i}:0..99&keys=0..${keys}`);
  await ready(page);
  await settled();
  console.log(`pg_num ${groups}, 99 OSDs, ${keys} keys: loaded in ${Date.now() - t0} ms, longest tasks ${JSON.stringify(await longest())} ms`);
  const t1 = Date.now();
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.waitForFunction(() => /^Added/.test(document.querySelector('[role=status]').textContent.trim()), null, { timeout: 300000 });
  console.log(`  add: ${Date.now() - t1} ms, longest tasks ${JSON.stringify(await longest())} ms`);
}
await context.close?.();
await server.close?.();
process.exit(0);
