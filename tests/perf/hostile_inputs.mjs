// How long the page's main thread is blocked by the heaviest legal inputs of issue 28: pasted
// `nodetool ring` and keys, scenario files of a million tokens or keys or 100,000 unknown
// fields, and a link whose Maglev table has a million cells. For each: the longest task
// (PerformanceObserver 'longtask') from the user's act until the page has answered, and the
// time to the answer. docs/PERFORMANCE.md, "Hostile round 3". A measurement, not a test.
//   node tests/perf/hostile_inputs.mjs [--only NAME]
import { serveDist, openBrowser, ready } from '../e2e/harness.mjs';

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;

function ring(nodes, perNode) {
  const rows = ['Datacenter: dc1', '==========', 'Address    Rack   Status State   Load     Owns   Token'];
  const tokens = [];
  let t = -9000000000000000000n;
  const step = 18000000000000000000n / BigInt(nodes * perNode);
  for (let i = 0; i < nodes * perNode; i++) { tokens.push(t); t += step; }
  tokens.forEach((tok, i) => { const n = i % nodes; rows.push(`10.0.${n >> 8}.${n & 255}  rack1  Up  Normal  1 KiB  1%  ${tok}`); });
  return rows.join('\n') + '\n';
}
const file = (fields) => JSON.stringify({ format: 'hashring-lab scenario', version: 1, ...fields });
function tokensFile(nodes, perNode) {
  // Small tokens (up to 7 digits), so that a million fit a file under the 16 MB limit.
  let t = -5000000n;
  const step = 10n;
  const per = Array.from({ length: nodes }, () => []);
  for (let i = 0; i < nodes * perNode; i++) { per[i % nodes].push(String(t)); t += step; }
  return file({ algo: 'cassandra', nodes: `n{i}:0..${nodes}`, tokens: per.map((p) => p.join('+')).join(','), keys: '0..1000' });
}

const CASES = [
  ['paste ring 15,000 tokens', { paste: '#config-text', button: '.use-config', text: () => ring(100, 150) }],
  ['paste ring 300,000 tokens', { paste: '#config-text', button: '.use-config', text: () => ring(10000, 30) }],
  ['paste 1,000,000 keys', { paste: '#keys-text', button: '.use-keys', text: () => Array.from({ length: 1000000 }, (_, i) => `user:${i}`).join('\n') }],
  ['file 1,000,000 tokens', { file: () => tokensFile(100, 10000) }],
  ['file 1,000,000 listed keys', { file: () => file({ keys: `list:${Array.from({ length: 1000000 }, (_, i) => `k${i}`).join(',')}` }) }],
  ['file 100,000 unknown fields', { file: () => `{"format": "hashring-lab scenario", "version": 1, ${Array.from({ length: 100000 }, (_, i) => `"field${i}": 1`).join(', ')}}` }],
  ['link maglev table 1,000,003, 100 servers', { link: 'algo=maglev&table=1000003&nodes=s{i}:0..100&keys=0..1000' }],
  ['link maglev table 251, 100 servers (the baseline)', { link: 'algo=maglev&nodes=s{i}:0..100&keys=0..1000' }],
];

const server = await serveDist();
try {
  for (const [name, c] of CASES) {
    if (only && !name.includes(only)) continue;
    const { context, page } = await openBrowser({ fresh: true, width: 1440, height: 900 });
    try {
      await page.addInitScript(() => {
        window.longTasks = [];
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push([e.startTime, e.duration]); })
          .observe({ type: 'longtask', buffered: true });
      });
      let started;
      if (c.link) {
        started = 0;
        await page.goto(`${server.origin}/?lang=en&${c.link}`);
      } else {
        await page.goto(`${server.origin}/?lang=en&nodes=A,B,C&keys=0..300`);
        await ready(page);
        await page.evaluate(() => document.querySelector('details.export').setAttribute('open', ''));
        if (c.paste) {
          const text = c.text();
          await page.$eval(c.paste, (el, t) => { el.value = t; }, text);
          started = await page.evaluate(() => performance.now());
          await page.$eval(c.button, (b) => b.click());
        } else {
          const buffer = Buffer.from(c.file());
          started = await page.evaluate(() => performance.now());
          await page.setInputFiles('#open-scenario', { name: 'big.json', mimeType: 'application/json', buffer });
        }
      }
      // Answered: a notice, or a scenario loaded with no progress bar left.
      await page.waitForFunction(() => document.querySelector('.error')
        || (document.querySelector('.summary') && !document.querySelector('.summary progress') && !/^(Loading|Placing)/.test(document.querySelector('[role=status]')?.textContent || '')),
      null, { timeout: 180000, polling: 50 });
      await page.waitForFunction(() => document.querySelector('.error') || !document.querySelector('.summary progress'), null, { timeout: 180000, polling: 50 });
      const answered = await page.evaluate(() => performance.now());
      const tasks = await page.evaluate((t0) => window.longTasks.filter(([s]) => s >= t0 - 5), started);
      const longest = Math.max(0, ...tasks.map(([, d]) => d));
      const said = await page.evaluate(() => (document.querySelector('.error')?.textContent || document.querySelector('[role=status]')?.textContent || '').slice(0, 90));
      console.log(`${name}: longest task ${longest.toFixed(0)} ms, answered after ${(answered - started).toFixed(0)} ms — ${said}`);
    } finally {
      await context.close();
    }
  }
} finally {
  await server.close();
}
