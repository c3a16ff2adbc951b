// Where a click's longest task goes: loads a scenario, records a Chrome trace over clicks
// on the given buttons (each until the page has settled), and prints the renderer main
// thread's longest tasks with their child events over 2 ms. A diagnostic, not a test.
//   node tests/perf/trace_click.mjs 'algo=carp&nodes=…&keys=random:1000000' ['Add server,Remove server']
import { serveDist, openBrowser } from '../e2e/harness.mjs';

const query = process.argv[2];
const buttons = (process.argv[3] || 'Add server').split(',');
const server = await serveDist();
const { context, page } = await openBrowser({ fresh: true });
try {
  await page.goto(`${server.origin}/?${query}`);
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length > 0
    && !document.querySelector('.summary progress'), null, { timeout: 600000 });
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', {
    categories: process.env.TRACE_CATEGORIES || 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink,cc,gpu',
    transferMode: 'ReportEvents',
  });
  for (const button of buttons) {
    const before = await page.textContent('[role=status]');
    await page.getByRole('button', { name: button, exact: true }).click();
    await page.waitForFunction((b) => document.querySelector('[role=status]').textContent !== b
      && !document.querySelector('.summary progress'), before, { timeout: 600000 });
    // The frames that follow (charts, the ring's static layer) belong to the click too.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  await cdp.send('Tracing.end');
  await done;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const tasks = mine.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask')
    .sort((a, b) => b.dur - a.dur).slice(0, 4);
  for (const t of tasks) {
    console.log(`task ${(t.dur / 1000).toFixed(1)} ms`);
    const inside = mine.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > Number(process.env.TRACE_MIN_US || 2000))
      .sort((a, b) => a.ts - b.ts);
    for (const e of inside) {
      const depth = inside.filter((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur).length;
      const what = e.args?.data?.functionName || e.args?.data?.type || e.args?.data?.url?.slice(-30) || '';
      console.log(`  ${'  '.repeat(depth)}${e.name} ${(e.dur / 1000).toFixed(1)} ms ${what}`);
    }
  }
} finally {
  await context.close();
  await server.close();
}
