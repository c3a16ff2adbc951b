// A real-size Ceph cluster over its CRUSH hierarchy in the page: 8 hosts × 12 OSDs (96, the
// page's limit is 100), the rule `chooseleaf firstn 0 type host`, the largest pools; load,
// follow an object, then "Add host" (12 OSDs more would pass the limit: the hosts are 8 × 11
// here, and the added host gets 11), and the longest main-thread task of each (a
// `PerformanceObserver` on long tasks). `make dist` first; then
//   node tests/perf/ceph_hierarchy.mjs
// (its numbers: docs/PERFORMANCE.md, "A Ceph hierarchy, in steps").
import { ready } from '../e2e/harness.mjs';
import { openWatched } from './long_tasks.mjs';

const { server, page, context, settled, longest } = await openWatched();
const [hosts, perHost] = [8, 11];
const osds = [...Array(hosts * perHost).keys()].map((i) => `osd.${i}`);
const buckets = [...Array(hosts).keys()].map((h) =>
  `host:ceph-osd-${String(h + 1).padStart(2, '0')}.prod.example.com:-${h + 1}(${osds.slice(h * perHost, (h + 1) * perHost).join(',')})`);
const root = `root:default:-${hosts + 1}(${[...Array(hosts).keys()].map((h) => `ceph-osd-${String(h + 1).padStart(2, '0')}.prod.example.com`).join(',')})`;
const crush = encodeURIComponent(['rule:take:default,chooseleaf:0:host,emit', ...buckets, root].join(';'));
for (const [groups, keys] of [[65536, 1000000], [1000003, 1000]]) {
  const t0 = Date.now();
  await page.goto(`${server.origin}/?lang=en&algo=ceph&pg_num=${groups}&nodes=${osds.join(',')}&crush=${crush}&keys=${encodeURIComponent(`obj-{i}:0..${keys}`)}`);
  await ready(page, 300000);
  await settled();
  console.log(`pg_num ${groups}, ${osds.length} OSDs in ${hosts} hosts, ${keys} keys: loaded in ${Date.now() - t0} ms, longest tasks ${JSON.stringify(await longest())} ms`);
  const t1 = Date.now();
  if (!process.env.NO_FOLLOW) await page.fill('#lookup-key', 'obj-7');
  if (!process.env.NO_FOLLOW) await page.press('#lookup-key', 'Enter');
  if (!process.env.NO_FOLLOW) await page.waitForFunction(() => document.querySelector('canvas.ring-overlay')?.dataset.copiesOf === 'obj-7');
  console.log(`  follow obj-7: ${Date.now() - t1} ms, longest tasks ${JSON.stringify(await longest())} ms`);
  const t2 = Date.now();
  await page.getByRole('button', { name: 'Add host' }).click();
  await page.waitForFunction(() => /^Added host/.test(document.querySelector('[role=status]').textContent.trim()), null, { timeout: 300000 });
  await settled();
  const line = await page.textContent('.readout .groups-line');
  console.log(`  add host: ${Date.now() - t2} ms, longest tasks ${JSON.stringify(await longest())} ms; ${line}`);
}
await context.close?.();
await server.close?.();
process.exit(0);
