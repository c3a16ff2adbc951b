// First paint against the smallest kind of peer (not a test: numbers vary by machine).
//
//   node tests/perf/first_paint.mjs [--dist DIR] [--rounds N] [--keys N]
//
// Loads, alternately in the same run, each in a fresh Chromium (cold: new profile, nothing
// cached) at 1440×900: hashring-lab's built page (dist/) with 4 servers and --keys keys
// (1,000 by default), and tests/perf/peer/ — a plain-JavaScript page that draws a 4-server
// ring with 1,000 dots. For each: first contentful paint (the browser's paint timing) and
// the ring with its data (ours: the canvas records that the link's scenario is drawn,
// data-drawn-loaded; the peer's: it records when it drew) — the first frame that shows it,
// rendered (see `load`). Prints the medians and
// their ratios; the targets are FCP ≤ 1.2× and the ring with data ≤ 1.5× the peer's.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDist, openBrowser, closeBrowsers, dist as defaultDist } from '../e2e/harness.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(arg('--dist', defaultDist));
const rounds = Number(arg('--rounds', '9'));
const keys = Number(arg('--keys', '1000'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * FCP from the paint timeline; "data" = when the first frame that shows the ring with its
 * data has been rendered. Measured the same way for both pages, from an init script that
 * runs before either page's own code: every frame, a rAF callback posts a message, and the
 * message — handled once that frame's rendering is done — asks the page-specific condition
 * whether the ring with its data is drawn. The first yes is the time. (The first version
 * of this measure waited for a rAF *after* the condition held, checked from a loop started
 * once Playwright's `load` returned: for a page that draws inside a frame it counted one or
 * two frames more than for one that draws before a frame — docs/PERFORMANCE.md.)
 */
async function load(url, drawn) {
  const b = await openBrowser({ width: 1440, height: 900, fresh: true });
  try {
    await b.page.addInitScript((drawn) => {
      window.__fcp = 0;
      window.__data = 0;
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') window.__fcp = e.startTime;
      }).observe({ type: 'paint', buffered: true });
      const isDrawn = new Function(`return (${drawn})()`);
      const after = new MessageChannel();
      after.port1.onmessage = () => {
        if (isDrawn()) window.__data = performance.now();
        else requestAnimationFrame(frame);
      };
      const frame = () => after.port2.postMessage(0);
      requestAnimationFrame(frame);
    }, drawn);
    await b.page.goto(url);
    await b.page.waitForFunction(() => window.__fcp > 0 && window.__data > 0);
    return await b.page.evaluate(() => ({ fcp: window.__fcp, data: window.__data }));
  } finally {
    await b.context.close();
  }
}

const ours = await serveDist(dist);
const peer = await serveDist(path.join(here, 'peer'));
const ourUrl = `${ours.origin}/?nodes=A,B,C,D&keys=0..${keys}`;
const ourDrawn = String(() => document.querySelector('canvas.ring')?.dataset.drawnLoaded === '1');
const peerDrawn = String(() => window.ringDrawnAt > 0);
const seen = { ours: [], peer: [] };
for (let i = 0; i < rounds; i++) {
  // Alternately, starting with each in turn.
  const order = i % 2 ? ['peer', 'ours'] : ['ours', 'peer'];
  for (const who of order) {
    seen[who].push(who === 'ours' ? await load(ourUrl, ourDrawn) : await load(`${peer.origin}/index.html`, peerDrawn));
  }
}
const sum = (who, k) => Math.round(median(seen[who].map((s) => s[k])));
const result = {
  keys, rounds,
  ours: { fcp_ms: sum('ours', 'fcp'), ring_with_data_ms: sum('ours', 'data') },
  peer: { fcp_ms: sum('peer', 'fcp'), ring_with_data_ms: sum('peer', 'data') },
};
result.fcp_ratio = Math.round((result.ours.fcp_ms / result.peer.fcp_ms) * 100) / 100;
result.ring_with_data_ratio = Math.round((result.ours.ring_with_data_ms / result.peer.ring_with_data_ms) * 100) / 100;
// Each round loads both pages back to back: the median of the rounds' own ratios follows a
// machine whose speed drifts during the run better than the ratio of the two medians.
const paired = (k) => Math.round(median(seen.ours.map((s, i) => s[k] / seen.peer[i][k])) * 100) / 100;
result.paired = { fcp_ratio: paired('fcp'), ring_with_data_ratio: paired('data') };
console.log(JSON.stringify(result, null, 2));
await ours.close();
await peer.close();
await closeBrowsers();
