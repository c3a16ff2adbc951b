// The page served and opened with its long main-thread tasks recorded (a
// `PerformanceObserver` on long tasks, from the first script on): what the perf scripts that
// report "the longest tasks" of a load or a click share.
import { serveDist, openBrowser } from '../e2e/harness.mjs';

/** Serves dist/ and opens a 1440 × 900 page watching long tasks: `settled()` waits until no
 * work is in progress, `longest()` takes the three longest tasks since the last call (ms). */
export async function openWatched() {
  const server = await serveDist();
  const { page, context } = await openBrowser({ width: 1440, height: 900 });
  await page.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(Math.round(e.duration)); })
      .observe({ type: 'longtask', buffered: true });
  });
  const settled = () => page.waitForFunction(() => !document.querySelector('.summary progress'), null, { timeout: 300000 });
  const longest = async () => (await page.evaluate(() => window.__long.splice(0))).sort((a, b) => b - a).slice(0, 3);
  return { server, page, context, settled, longest };
}
