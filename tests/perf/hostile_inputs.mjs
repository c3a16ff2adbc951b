// How long the page's main thread is blocked by the heaviest legal inputs of issue 28: pasted
// `nodetool ring` and keys, scenario files of a million tokens or keys or 100,000 unknown
// fields, and a link whose Maglev table has a million cells. For each: the longest task
// (PerformanceObserver 'longtask') from the user's act until the page has answered, and the
// time to the answer. docs/PERFORMANCE.md, "Hostile round 3". A measurement, not a test.
//   node tests/perf/hostile_inputs.mjs [--only NAME]
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveDist, openBrowser, ready } from '../e2e/harness.mjs';

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
// --trace: also record a Chromium trace and print what the longest task was made of.
const trace = process.argv.includes('--trace');

function ring(nodes, perNode) {
  const rows = ['Datacenter: dc1', '==========', 'Address    Rack   Status State   Load     Owns   Token'];
  const tokens = [];
  let t = -9000000000000000000n;
  const step = 18000000000000000000n / BigInt(nodes * perNode);
  for (let i = 0; i < nodes * perNode; i++) { tokens.push(t); t += step; }
  tokens.forEach((tok, i) => { const n = i % nodes; rows.push(`10.0.${n >> 8}.${n & 255}  rack1  Up  Normal  1 KiB  1%  ${tok}`); });
  return rows.join('\n') + '\n';
}
function clusterNodes(masters) {
  const rows = [];
  for (let i = 0; i < masters; i++) {
    const id = i.toString(16).padStart(40, '0');
    rows.push(`${id} 10.${i >> 16}.${(i >> 8) & 255}.${i & 255}:6379@16379 master - 0 0 ${i + 1} connected ${i % 16384}`);
  }
  return rows.join('\n') + '\n';
}
// One line of 16 MB: an upstream of `servers` servers, then a directive of millions of words.
function nginxLine(servers) {
  const head = `upstream u { hash $k consistent; ${Array.from({ length: servers }, (_, i) => `server 10.0.${i >> 8}.${i & 255};`).join(' ')} x`;
  return `${head}${' word'.repeat(Math.floor((16 * 1024 * 1024 - head.length - 4) / 5))}; }`;
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
  ['paste nodetool ring 100,000 nodes', { paste: '#config-text', button: '.use-config', text: () => ring(100000, 1) }],
  ['paste CLUSTER NODES 100,000 masters', { paste: '#config-text', button: '.use-config', text: () => clusterNodes(100000) }],
  ['paste nginx 16 MB one line, 100 servers', { paste: '#config-text', button: '.use-config', text: () => nginxLine(100) }],
  ['paste nginx 16 MB one line, 9,000 servers', { paste: '#config-text', button: '.use-config', text: () => nginxLine(9000) }],
  ['paste 1,000,000 keys', { paste: '#keys-text', button: '.use-keys', text: () => Array.from({ length: 1000000 }, (_, i) => `user:${i}`).join('\n') }],
  ['file 1,000,000 tokens', { file: () => tokensFile(100, 10000) }],
  ['file 1,000,000 listed keys', { file: () => file({ keys: `list:${Array.from({ length: 1000000 }, (_, i) => `k${i}`).join(',')}` }) }],
  ['file 100,000 unknown fields', { file: () => `{"format": "hashring-lab scenario", "version": 1, ${Array.from({ length: 100000 }, (_, i) => `"field${i}": 1`).join(', ')}}` }],
  ['link maglev table 1,000,003, 100 servers', { link: 'algo=maglev&table=1000003&nodes=s{i}:0..100&keys=0..1000' }],
  ['link maglev table 251, 100 servers (the baseline)', { link: 'algo=maglev&nodes=s{i}:0..100&keys=0..1000' }],
];

/** The longest main-thread task of a trace and its biggest direct parts, by name. */
function summarise(data) {
  const all = data.traceEvents || data;
  const mark = all.find((e) => e.name === 'hostile-started');
  const events = all.filter((e) => e.ph === 'X' && e.dur && (!mark || e.ts >= mark.ts - 5000));
  const tasks = events.filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.dur > 50000);
  if (!tasks.length) console.log('  no long task in the trace; longest events:', events.sort((a, b) => b.dur - a.dur).slice(0, 8).map((e) => `${e.name} ${(e.dur / 1000).toFixed(0)}`).join(', '));
  for (const task of tasks.sort((a, b) => b.dur - a.dur).slice(0, 3)) {
    const inner = events.filter((e) => e.tid === task.tid && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e !== task);
    const byName = {};
    for (const e of inner) byName[e.name] = (byName[e.name] || 0) + e.dur;
    const parts = Object.entries(byName).sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, d]) => `${n} ${(d / 1000).toFixed(0)}`);
    console.log(`  task ${(task.dur / 1000).toFixed(0)} ms: ${parts.join(', ')}`);
  }
}

const server = await serveDist();
try {
  for (const [name, c] of CASES) {
    if (only && !name.includes(only)) continue;
    const { context, page } = await openBrowser({ fresh: true, width: 1440, height: 900 });
    if (process.env.CONSOLE) page.on('console', (m) => console.log('   console:', m.text()));
    try {
      await page.addInitScript(() => {
        window.longTasks = [];
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push([e.startTime, e.duration]); })
          .observe({ type: 'longtask', buffered: true });
      });
      let started;
      let before = null;
      if (trace) await context.browser().startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'v8.execute', 'blink', 'v8', 'blink.user_timing'] });
      if (c.link) {
        started = 0;
        await page.goto(`${server.origin}/?lang=en&${c.link}`);
      } else {
        await page.goto(`${server.origin}/?lang=en&nodes=A,B,C&keys=0..300`);
        await ready(page);
        await page.evaluate(() => document.querySelector('details.export').setAttribute('open', ''));
        before = await page.evaluate(() => document.querySelector('.summary').textContent);
        if (c.paste) {
          // Pasted as a user pastes (a paste event carrying the text): the page keeps a long
          // paste out of its box.
          // The text reaches the page first (as a clipboard holds it); the paste's own task
          // counts.
          await page.evaluate((t) => { window.clipboardText = t; }, c.text());
          started = await page.evaluate(() => { performance.mark('hostile-started'); return performance.now(); });
          await page.$eval(c.paste, (el) => {
            const data = new DataTransfer();
            data.setData('text/plain', window.clipboardText);
            el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
          });
          await page.waitForSelector('.held-paste');
          await page.$eval(c.button, (b) => b.click());
        } else {
          // From a file on disk, as a user picks one (a buffer would be decoded by the test's
          // own script in the page, a second-long task that is not the page's).
          const file = path.join(await mkdtemp(path.join(tmpdir(), 'hostile-')), 'big.json');
          await writeFile(file, c.file());
          started = await page.evaluate(() => { performance.mark('hostile-started'); return performance.now(); });
          await page.setInputFiles('#open-scenario', file);
        }
      }
      // Answered: a refusal, or another scenario loaded (its summary changed) with no
      // progress bar left.
      await page.waitForFunction((before) => document.querySelector('.error')
        || (document.querySelector('.summary') && document.querySelector('.summary').textContent !== before
          && !document.querySelector('.export-progress') && !document.querySelector('.summary progress')
          && !/^(Loading|Placing)/.test(document.querySelector('[role=status]')?.textContent || '')),
      before, { timeout: 180000, polling: 50 });
      await page.waitForFunction(() => document.querySelector('.error') || !document.querySelector('.summary progress'), null, { timeout: 180000, polling: 50 });
      const answered = await page.evaluate(() => performance.now());
      const tasks = await page.evaluate((t0) => window.longTasks.filter(([s]) => s >= t0 - 5), started);
      const longest = Math.max(0, ...tasks.map(([, d]) => d));
      const said = await page.evaluate(() => (document.querySelector('.error')?.textContent || document.querySelector('.summary')?.textContent || '').slice(0, 90));
      if (trace) summarise(JSON.parse((await context.browser().stopTracing()).toString()));
      console.log(`${name}: longest task ${longest.toFixed(0)} ms, answered after ${(answered - started).toFixed(0)} ms — ${said}`);
    } finally {
      await context.close();
    }
  }
} finally {
  await server.close();
}
