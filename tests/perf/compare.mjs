// A/B comparison of two built pages on the same machine, alternating runs so that the
// machine's drift hits both alike (not a test: numbers vary by machine).
//
//   node tests/perf/compare.mjs OLD_DIST NEW_DIST [--keys N | --default] [--rounds R] [--query Q] [--profile]
//
// Each round, for each build: load 10 servers × 200 vnodes × N keys (default 1,000,000; with
// --default, the page's own scenario),
// then 20 clicks alternating Add/Remove, each timed from the click's dispatch until the
// ring's static layer shows the new state (data-version) and then one more frame; and the
// frame-to-frame times while the moved keys walk. Prints medians and p95s per build.
// --profile records a CPU profile over the clicks (CDP Profiler) and prints the 15 most
// expensive functions by self time — build the page with `data-keep-debug` on the rust
// link and `data-wasm-opt="0"` to see wasm function names.
import path from 'node:path';
import { serveDist, openBrowser } from '../e2e/harness.mjs';

const [oldDist, newDist] = process.argv.slice(2, 4).map((d) => path.resolve(d));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const keys = arg('--keys', 1_000_000);
const rounds = arg('--rounds', 2);
const profile = process.argv.includes('--profile');
// --default: the page's own scenario (no link: 4 servers × 10 vnodes × 1,000 keys) instead.
const defaultScenario = process.argv.includes('--default');
// Extra page parameters for both builds (e.g. theme=dark), appended to the scenario.
const extra = process.argv.includes('--query') ? `&${process.argv[process.argv.indexOf('--query') + 1]}` : '';
if (!oldDist || !newDist) {
  console.error('usage: node tests/perf/compare.mjs OLD_DIST NEW_DIST [--keys N] [--rounds R] [--profile]');
  process.exit(2);
}
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[xs.length >> 1];
const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

async function measure(dir) {
  const server = await serveDist(dir);
  const b = await openBrowser({ fresh: true });
  try {
    const names = Array.from({ length: 10 }, (_, i) => `s${i}`).join(',');
    await b.page.goto(defaultScenario ? `${server.origin}/?${extra.slice(1)}`
      : `${server.origin}/?nodes=${names}&vnodes=200&keys=key-{i}:0..${keys}${extra}`);
    await b.page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length > 0
      && !document.querySelector('.summary progress'), null, { timeout: 120000 });
    const cdp = profile ? await b.context.newCDPSession(b.page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    const clicks = [];
    for (let i = 0; i < 20; i++) {
      clicks.push(await b.page.evaluate((name) => new Promise((resolve) => {
        const canvas = document.querySelector('canvas.ring');
        const version = canvas.dataset.version;
        const button = [...document.querySelectorAll('button')].find((x) => (x.getAttribute('aria-label') || x.textContent.trim()) === name);
        const t0 = performance.now();
        button.click();
        const poll = () => {
          if (canvas.dataset.version === version) { requestAnimationFrame(poll); return; }
          requestAnimationFrame(() => resolve(performance.now() - t0));
        };
        requestAnimationFrame(poll);
      }), i % 2 ? 'Remove server' : 'Add server'));
    }
    const top = [];
    if (cdp) {
      const { profile: p } = await cdp.send('Profiler.stop');
      const byId = new Map(p.nodes.map((n) => [n.id, n]));
      const self = new Map();
      p.samples.forEach((id, i) => {
        const name = (byId.get(id).callFrame.functionName || '(anonymous)').slice(0, 100);
        self.set(name, (self.get(name) || 0) + (p.timeDeltas[i] || 0) / 1000);
      });
      top.push(...[...self].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([k, v]) => `${(v / 20).toFixed(1)} ms/click  ${k}`));
    }
    const frames = [];
    for (let i = 0; i < 4; i++) {
      frames.push(...await b.page.evaluate(async (name) => {
        const times = [];
        [...document.querySelectorAll('button')].find((x) => (x.getAttribute('aria-label') || x.textContent.trim()) === name).click();
        const start = performance.now();
        await new Promise((done) => {
          const tick = (t) => { times.push(t); if (t - start < 1400) requestAnimationFrame(tick); else done(); };
          requestAnimationFrame(tick);
        });
        return times.slice(2).map((t, j) => t - times[j + 1]);
      }, i % 2 ? 'Remove server' : 'Add server'));
    }
    return { clicks, frames, top };
  } finally {
    await b.context.close();
    await server.close();
  }
}

const results = { [oldDist]: { clicks: [], frames: [] }, [newDist]: { clicks: [], frames: [] } };
for (let r = 0; r < rounds; r++) {
  for (const dir of [oldDist, newDist]) {
    const m = await measure(dir);
    results[dir].clicks.push(...m.clicks);
    results[dir].frames.push(...m.frames);
    if (m.top.length) console.log(`profile of ${dir}:\n  ${m.top.join('\n  ')}`);
  }
}
for (const [dir, m] of Object.entries(results)) {
  console.log(`${path.relative(process.cwd(), dir) || '.'}: ${defaultScenario ? 'the default scenario' : `${keys} keys`}, ${m.clicks.length} clicks → frame median ${median(m.clicks).toFixed(1)} ms, p95 ${p95(m.clicks).toFixed(1)} ms; `
    + `${m.frames.length} frames while keys walk: median ${median(m.frames).toFixed(1)} ms, p95 ${p95(m.frames).toFixed(1)} ms`);
}
