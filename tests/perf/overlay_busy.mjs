// How busy the page's main thread is while the ring's overlay animates after a change: for
// each moment (the clock frozen that many ms after an Add server with `freeze=`), the
// renderer's TaskDuration over two seconds (DevTools Performance.getMetrics), and the mean
// frame interval. docs/PERFORMANCE.md, "The overlay between changes". A measurement, not a test.
//   node tests/perf/overlay_busy.mjs ['nodes=A,B,…&keys=…']
import { serveDist, openBrowser, ready } from '../e2e/harness.mjs';

const query = process.argv[2] || 'nodes=A,B,C,D,E,F,G,H,I,J&keys=key-{i}:0..100000&vnodes=100';
// [label, ms after the change the clock stands at, hide the moved keys' marks]
const MOMENTS = [
  ['keys walking', 800, false],
  ['arcs fading, moved keys marked', 3000, false],
  ['the same, marks hidden', 3000, true],
  ['resting', 20000, false],
];
const server = await serveDist();
try {
  for (const [label, freeze, hide] of MOMENTS) {
    const { context, page } = await openBrowser({ fresh: true, width: 1440, height: 900 });
    try {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
      await page.goto(`${server.origin}/?${query}&freeze=${freeze}`);
      await ready(page, 120000);
      await page.getByRole('button', { name: 'Add server' }).click();
      await page.waitForFunction(() => /^Added/.test(document.querySelector('[role=status]').textContent)
        && !document.querySelector('.summary progress'), null, { timeout: 120000 });
      if (hide) await page.click('.readout .mark-moved input');
      // Settle: the click's own work is over before the window opens.
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
      const frame = await page.evaluate(() => new Promise((ok) => {
        let n = 0;
        const t0 = performance.now();
        const f = () => (++n < 60 ? requestAnimationFrame(f) : ok((performance.now() - t0) / 60));
        requestAnimationFrame(f);
      }));
      const before = await busy();
      await page.evaluate(() => new Promise((ok) => setTimeout(ok, 2000)));
      const used = (await busy()) - before;
      console.log(`${label.padEnd(32)} main thread busy ${used.toFixed(2)} s of 2 s, frame ${frame.toFixed(1)} ms`);
    } finally {
      await context.close();
    }
  }
} finally {
  await server.close();
}
