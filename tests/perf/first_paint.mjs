// First paint against the smallest kind of peer (not a test: numbers vary by machine).
//
//   node tests/perf/first_paint.mjs [--dist DIR] [--rounds N] [--keys N]
//
// Loads, alternately in the same run, each in a fresh Chromium (cold: new profile, nothing
// cached) at 1440×900: hashring-lab's built page (dist/) with 4 servers and --keys keys
// (1,000 by default), and tests/perf/peer/ — a plain-JavaScript page that draws a 4-server
// ring with 1,000 dots. For each: first contentful paint (the browser's paint timing) and
// the ring with its data (ours: the frame after the canvas records that the link's scenario
// is drawn, data-drawn-loaded; the peer's: the frame after it drew). Prints the medians and
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

/** FCP from the paint timeline; "data" from a page-specific condition, plus one frame. */
async function load(url, drawn) {
  const b = await openBrowser({ width: 1440, height: 900, fresh: true });
  try {
    await b.page.addInitScript(() => {
      window.__fcp = 0;
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') window.__fcp = e.startTime;
      }).observe({ type: 'paint', buffered: true });
    });
    await b.page.goto(url);
    const data = await b.page.evaluate((drawn) => new Promise((resolve) => {
      const isDrawn = new Function(`return (${drawn})()`);
      const check = () => {
        if (!isDrawn()) return requestAnimationFrame(check);
        requestAnimationFrame(() => resolve(performance.now()));
      };
      check();
    }), drawn);
    await b.page.waitForFunction(() => window.__fcp > 0);
    return { fcp: await b.page.evaluate(() => window.__fcp), data };
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
console.log(JSON.stringify(result, null, 2));
await ours.close();
await peer.close();
await closeBrowsers();
