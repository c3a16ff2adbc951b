// The largest Ceph pools in the page: load, then an Add server, and the longest main-thread
// task of each (a `PerformanceObserver` on long tasks). `make dist` first; then
//   node tests/perf/ceph_pool.mjs
// (its numbers: `git log -- docs/PERFORMANCE.md`, "A large Ceph pool, in steps").
import { ready } from '../e2e/harness.mjs';
import { openWatched } from './long_tasks.mjs';

const { server, page, context, settled, longest } = await openWatched();
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
