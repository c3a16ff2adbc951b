// How much CPU the page costs while nothing on it moves: the CPU time of Chromium's processes
// (renderer, GPU process, browser; /proc/<pid>/stat) over 10 s, from 3 s after the page
// settled (and after an Add server, for the second row). Run it with nothing else using
// Chromium: every Chromium process on the machine is counted. docs/PERFORMANCE.md, "An idle
// page asks for no frames". A measurement, not a test (Linux only).
//   node tests/perf/idle_cpu.mjs
import { readFileSync, readdirSync } from 'node:fs';
import { serveDist, openBrowser, ready } from '../e2e/harness.mjs';

const ROWS = [
  ['the default page, untouched', '', false],
  ['100,000 keys, 3-13 s after Add server', 'nodes=A,B,C,D&keys=key-{i}:0..100000', true],
];

/** CPU seconds so far of every Chromium process, summed by its --type (browser if none). */
function chromiumCpu() {
  const byType = {};
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      // Zygote-forked children rewrite their title as one space-separated string.
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
      if (!/chrom/.test(cmd[0] || '')) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, ticks
      const type = (cmd.find((a) => a.startsWith('--type=')) || '--type=browser').slice(7);
      byType[type] = (byType[type] || 0) + seconds;
    } catch { /* the process ended meanwhile */ }
  }
  return byType;
}

const pause = (page, ms) => page.evaluate((t) => new Promise((ok) => setTimeout(ok, t)), ms);
const server = await serveDist();
try {
  for (const [label, query, add] of ROWS) {
    const { context, page } = await openBrowser({ fresh: true, width: 1400, height: 1100 });
    try {
      await page.goto(`${server.origin}/?${query}`);
      await ready(page, 120000);
      if (add) await page.getByRole('button', { name: 'Add server' }).click();
      await pause(page, 3000);
      const before = chromiumCpu();
      const t0 = Date.now();
      await pause(page, 10000);
      const after = chromiumCpu();
      const wall = (Date.now() - t0) / 1000;
      const share = (type) => `${Math.round((100 * ((after[type] || 0) - (before[type] || 0))) / wall)} %`;
      console.log(`${label}: renderer ${share('renderer')}, GPU process ${share('gpu-process')}, browser ${share('browser')}`);
    } finally {
      await context.close();
    }
  }
} finally {
  await server.close();
}
