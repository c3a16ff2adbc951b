// Embeds that explain (issue 16): in frames from 320×240 up, the line saying what moved is
// in view after a change, the buttons carry words, nothing overlaps and nothing scrolls
// inside the frame; the sample documentation page drives a frame and follows its events.
import { test, before, after } from 'node:test';
import { createServer } from 'node:http';
import assert from 'node:assert/strict';
import { serveDist, openBrowser, ready, tableCounts, fits, tourSettled, TOURS } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await openBrowser({ width: 900, height: 1000 }); });
after(async () => { await browser?.context.close(); await server?.close(); });

/** A frame of `width`×`height` on the sample page (same origin, its strict CSP). */
async function frameOf(page, src, width, height) {
  await page.goto(`${server.origin}/embed-example.html`);
  await page.evaluate(([src, w, h]) => {
    // Sized through the CSSOM: the page's CSP refuses inline style attributes.
    const frame = Object.assign(document.createElement('iframe'), { id: 'probe', src });
    Object.assign(frame.style, { width: `${w}px`, height: `${h}px`, maxWidth: 'none', boxSizing: 'content-box', border: '0' });
    document.querySelector('main').prepend(frame);
  }, [src, width, height]);
  const frame = await (await page.$('#probe')).contentFrame();
  await ready(frame);
  return frame;
}

const boxesOverlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;

for (const [width, height] of [[320, 240], [480, 360], [720, 240], [720, 460], [800, 450]]) {
  test(`an embed of ${width}×${height} says what moved after a change, with worded buttons and no inner scroll`, async () => {
    const { page } = browser;
    const frame = await frameOf(page, 'index.html?embed=1&keys=0..5000', width, height);
    assert.deepEqual(await frame.evaluate(() => [innerWidth, innerHeight]), [width, height], 'the frame has the size under test');
    await frame.click('.embed-bar button.primary');
    await frame.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 5);
    const line = await frame.textContent('.moved-short');
    const moved = (await tableCounts(frame)).find((r) => r.name === 'E').keys;
    assert.equal(line, `${moved.toLocaleString('en-US')} of 5,000 moved — ideal 1,000`);
    const f = await fits(frame, ['canvas.ring', '.moved-short', '.embed-bar button.primary', '.embed-bar button:nth-child(2)', '.embed-bar a.open-full']);
    assert.deepEqual(f.outside, [], 'in the frame');
    assert.equal(f.sideways, false);
    const b = f.boxes;
    for (const [x, y] of [['canvas.ring', '.moved-short'], ['.moved-short', '.embed-bar button.primary'], ['canvas.ring', '.embed-bar button.primary']]) {
      assert.ok(!boxesOverlap(b[x], b[y]), `${x} and ${y} overlap: ${JSON.stringify([b[x], b[y]])}`);
    }
    // Buttons say what they do in words, not a bare "+" that reads as zoom.
    assert.match(await frame.innerText('.embed-bar button.primary'), /^\+ Add( server)?$/);
    assert.match(await frame.innerText('.embed-bar button:nth-child(2)'), /^− Remove( server)?$/);
    // Nothing scrolls inside the frame.
    const scroll = await frame.evaluate(() => {
      const over = (el) => el && getComputedStyle(el).display !== 'none' && el.scrollHeight > el.clientHeight + 1;
      return { page: document.scrollingElement.scrollHeight > innerHeight + 1, panel: over(document.querySelector('.panel')) };
    });
    assert.deepEqual(scroll, { page: false, panel: false });
    if (width > 560 && height > 300) {
      // The readout and the load chart beside the ring, in full.
      assert.deepEqual((await fits(frame, ['.readout .moved-line', 'canvas.load'])).outside, []);
    }
    await page.locator('#probe').screenshot({ path: `target/e2e/52-embed-${width}x${height}.png` });
  });
}

test('the sample page drives its frame with postMessage and follows its events', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/embed-example.html`);
  const frame = await (await page.$('#modn-frame')).contentFrame();
  await ready(frame);
  await page.waitForFunction(() => document.getElementById('host-line').textContent === 'The frame shows 4 servers and 10,000 keys.');
  // The host's button adds a server in the frame; the host's line states the frame's numbers.
  await page.click('#host-add');
  await frame.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 5);
  await page.waitForFunction(() => /^Added E:/.test(document.getElementById('host-line').textContent));
  const hostLine = await page.textContent('#host-line');
  const status = await frame.textContent('[role=status]');
  const [, moved] = status.match(/^Added E: ([\d,]+) of 10,000 keys moved/);
  assert.match(hostLine, new RegExp(`^Added E: ${moved} of 10,000 keys moved \\(ideal 2,000\\), [\\d,]+ of them between servers nobody touched\\.$`));
  const between = Number(hostLine.match(/, ([\d,]+) of them/)[1].replace(/,/g, ''));
  assert.match(await frame.textContent('.readout'), new RegExp(`between servers the change left alone: ${between.toLocaleString('en-US')}`));
  // The content height is reported for the host to size the frame.
  await page.waitForFunction(() => Number(document.getElementById('modn-frame').dataset.contentHeight) > 200);
  // Messages not from the parent are ignored: the frame posting to itself adds nothing.
  await frame.evaluate(() => window.postMessage({ 'hashring-lab': 1, command: 'add' }, '*'));
  // Malformed messages from the parent are ignored or answered, never obeyed.
  await page.evaluate(() => {
    const w = document.getElementById('modn-frame').contentWindow;
    for (const m of ['add', ['add'], null, 42, { command: 'add' }, { 'hashring-lab': 2, command: 'add' }]) w.postMessage(m, '*');
    w.postMessage({ 'hashring-lab': 1, command: 'explode' }, '*');
  });
  await page.waitForFunction(() => /^The frame refused: unknown command 'explode'/.test(document.getElementById('host-line').textContent));
  // A scenario from the host: the frame switches to the ring.
  await page.click('#host-ring');
  await frame.waitForFunction(() => new URL(location).searchParams.get('algo') === null && document.querySelectorAll('table.counts tbody tr').length === 4
    && !document.querySelector('.summary progress'));
  await page.waitForFunction(() => document.getElementById('host-line').textContent === 'The frame shows 4 servers and 10,000 keys.');
  assert.equal((await tableCounts(frame)).length, 4, 'nothing else was obeyed');
  await page.screenshot({ path: 'target/e2e/53-host-drives-embed.png', fullPage: true });
});

/** A probe frame of A, B, C over 500 keys whose events (but `resized`) the page collects in
 * `window.heard`. */
async function listenedFrame(page) {
  const frame = await frameOf(page, `${server.origin}/?embed=1&lang=en&nodes=A,B,C&keys=0..500`, 480, 360);
  await page.evaluate(() => {
    window.heard = [];
    addEventListener('message', (e) => {
      if (e.source === document.getElementById('probe').contentWindow && e.data?.['hashring-lab'] === 1 && e.data.event !== 'resized') window.heard.push(e.data);
    });
  });
  return frame;
}

test('a refused host command is answered by exactly one error event, every time, and nothing else', async () => {
  const { page } = browser;
  const frame = await listenedFrame(page);
  const send = (command) => page.evaluate((c) => document.getElementById('probe').contentWindow.postMessage({ 'hashring-lab': 1, ...c }, '*'), command);
  const heard = () => page.evaluate(() => window.heard.map((e) => `${e.event}:${e.change || e.message || ''}`));
  // A change first, so that a phantom repeat of its `changed` would show.
  await send({ command: 'add', name: 'D' });
  await page.waitForFunction(() => window.heard.length === 1);
  assert.match((await heard())[0], /^changed:Added D/);
  // The same refusal five times: five errors. An unknown server to remove: one more.
  for (let i = 0; i < 5; i++) await send({ command: 'fail', name: 'nobody' });
  await send({ command: 'remove', name: 'ghost' });
  await page.waitForFunction(() => window.heard.length >= 7);
  // A valid command after them: its one `changed` marks the end of what the refusals caused.
  await send({ command: 'remove', name: 'D' });
  await page.waitForFunction(() => window.heard.some((e) => /^Removed D/.test(e.change || '')));
  const events = await heard();
  assert.equal(events.length, 8, events.join('\n'));
  assert.deepEqual(events.slice(1, 6).map((e) => e.split(':')[0]), ['error', 'error', 'error', 'error', 'error']);
  for (const e of events.slice(1, 6)) assert.match(e, /nobody/);
  assert.match(events[6], /^error:.*ghost/);
  assert.match(events[7], /^changed:Removed D/);
  assert.deepEqual((await tableCounts(frame)).map((r) => r.name), ['A', 'B', 'C']);
});

/** A documentation page on another origin (a second port) that sizes its frames from
 * `resized` alone, in the README's few lines; its frames start `heights` tall. */
async function hostPage(src, width, heights) {
  const frames = heights.map((h, i) => `<iframe id="f${i}" src="${src}" style="width:${width}px;height:${h}px;border:0;display:block"></iframe>`).join('');
  const html = `<!doctype html><meta charset="utf-8"><body style="margin:0">${frames}<script>
    window.sizes = [];
    addEventListener('message', (e) => {
      const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === e.source);
      if (!frame || e.data?.['hashring-lab'] !== 1 || e.data.event !== 'resized') return;
      frame.style.height = e.data.height + 'px';
      window.sizes.push([frame.id, e.data.height]);
    });
  </script>`;
  const host = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise((ok) => host.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${host.address().port}/`, close: () => new Promise((ok) => host.close(ok)) };
}

/** In a frame: what is cut or scrolls inside it, and how much height its fullest column
 * has to spare (the ring's box taller than wide, or the load chart taller than its 120 px). */
const frameFit = (frame) => frame.evaluate(() => {
  const shown = (el) => el && getComputedStyle(el).display !== 'none' && el.getClientRects().length;
  const over = [...document.querySelectorAll('.app, .stage, .panel, .panel > *, .stage > *, section.tour .narration')]
    .filter((el) => shown(el) && el.clientHeight > 1 && el.scrollHeight > el.clientHeight + 1 && !el.matches('.ring-wrap'))
    .map((el) => `${el.className || el.tagName} ${el.scrollHeight}>${el.clientHeight}`);
  if (document.scrollingElement.scrollHeight > innerHeight + 1) over.push('page');
  const wrap = document.querySelector('.ring-wrap').getBoundingClientRect();
  const chart = document.querySelector('.panel canvas.load');
  const spare = [wrap.height - wrap.width];
  if (shown(chart)) spare.push(chart.getBoundingClientRect().height - 120);
  return { over, spare: Math.min(...spare), height: innerHeight };
});

/** Every element Tab reaches in `frame` (from its first), with its box: an auto-sized
 * frame has nothing focusable outside it (issue 49: a clipped Remove button still took the
 * focus). */
async function tabStops(page, frame, presses = 60) {
  await frame.evaluate(() => { document.activeElement?.blur(); window.focus(); });
  const stops = [];
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    const stop = await frame.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const b = el.getBoundingClientRect();
      return { what: (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 24), top: b.top, bottom: b.bottom, left: b.left, right: b.right, frame: [innerWidth, innerHeight] };
    });
    if (stop) stops.push(stop);
  }
  return stops;
}

const outsideFrame = (stops) => stops.filter((s) => s.top < -0.5 || s.bottom > s.frame[1] + 0.5 || s.left < -0.5 || s.right > s.frame[0] + 0.5)
  .map((s) => `${s.what} at ${Math.round(s.top)}–${Math.round(s.bottom)} in ${s.frame.join('×')}`);

test('an auto-sized 600-px frame with real names: the table opened, a server removed from it, nothing Tab reaches lies outside the frame', async () => {
  const nodes = [1, 2, 3, 4, 5].map((i) => `cache-0${i}.prod.example.com:11211`).join(',');
  const src = `${server.origin}/index.html?embed=1&lang=en&algo=ketama&nodes=${encodeURIComponent(nodes)}&keys=0..3000`;
  const host = await hostPage(src, 600, [150]);
  const { context, page } = await openBrowser({ width: 800, height: 1200 });
  try {
    await page.goto(host.url);
    const frame = await (await page.$('#f0')).contentFrame();
    await ready(frame);
    const frameHeight = () => page.evaluate(() => document.getElementById('f0').getBoundingClientRect().height);
    const fitted = () => page.waitForFunction(() => {
      const f = document.getElementById('f0');
      return window.sizes.length && Math.abs(f.getBoundingClientRect().height - window.sizes.at(-1)[1]) < 1;
    });
    await fitted();
    let stops = await tabStops(page, frame);
    assert.ok(stops.length >= 6, `${stops.length} tab stops`);
    assert.deepEqual(outsideFrame(stops), [], 'closed table');
    const told = await page.evaluate(() => window.sizes.length);
    await frame.click('details.folded > summary');
    await page.waitForFunction((n) => window.sizes.length > n, told);
    await fitted();
    stops = await tabStops(page, frame);
    assert.ok(stops.some((s) => /cache-05/.test(s.what) || /Remove/.test(s.what)), `the table's buttons take the focus: ${stops.map((s) => s.what).join(' | ')}`);
    assert.deepEqual(outsideFrame(stops), [], 'opened table');
    // Remove the last server from its row: the frame shrinks with its content.
    const tall = await frameHeight();
    await frame.locator('.servers tbody tr').last().locator('button').last().click();
    await frame.waitForSelector('.readout .moved-line');
    await fitted();
    assert.deepEqual(outsideFrame(await tabStops(page, frame)), [], `after a removal (${tall} px before)`);
  } finally {
    await context.close();
    await host.close();
  }
});

test('a host page on another origin sizes its frame from resized alone: content height, whatever height the frame had, and again when it grows', async () => {
  const src = `${server.origin}/index.html?embed=1&lang=en&algo=ring&vnodes=100&nodes=10.0.0.1:80,10.0.0.2:80,10.0.0.3:80,10.0.0.4:80&keys=0..5000`;
  const host = await hostPage(src, 720, [150, 900]);
  const { context, page } = await openBrowser({ width: 800, height: 1000 });
  try {
    await page.goto(host.url);
    const frames = await Promise.all(['#f0', '#f1'].map(async (id) => (await page.$(id)).contentFrame()));
    for (const f of frames) await ready(f);
    const settled = async () => {
      await page.waitForFunction(() => {
        const [a, b] = [...document.querySelectorAll('iframe')].map((f) => f.getBoundingClientRect().height);
        return a === b && a > 150 && a < 900;
      });
      return page.evaluate(() => document.getElementById('f0').getBoundingClientRect().height);
    };
    const before = await settled();
    for (const f of frames) {
      const fit = await frameFit(f);
      assert.deepEqual(fit.over, [], 'nothing inside the sized frame is cut or scrolls');
      assert.ok(fit.spare <= 2, `the frame is its content's height (${fit.spare} px to spare)`);
    }
    // Changes that grow the content: a server added (the readout appears beside the ring),
    // then the folded table of keys per server opened.
    for (const f of frames) {
      await f.click('.embed-bar button.primary');
      await f.waitForSelector('.readout .moved-line');
      await f.click('details.folded > summary');
    }
    await page.waitForFunction((h) => document.getElementById('f0').getBoundingClientRect().height > h, before);
    const after = await settled();
    assert.ok(after > before, `the frame grew with its content: ${before} → ${after}`);
    for (const f of frames) {
      const fit = await frameFit(f);
      assert.deepEqual(fit.over, [], 'nothing inside the grown frame is cut or scrolls');
      assert.ok(fit.spare <= 2, `the grown frame is its content's height (${fit.spare} px to spare)`);
      assert.equal(fit.height, after);
    }
    await page.screenshot({ path: 'target/e2e/54-host-sizes-embed.png', fullPage: true });
  } finally {
    await context.close();
    await host.close();
  }
});

for (const [width, height] of [[720, 460], [800, 450], [480, 360]]) {
  test(`a tour driven in a ${width}×${height} embed: every step of the java and ring tours keeps the narration's first line and Prev/Next in the frame, the ring readable or gone`, async () => {
    const { page } = browser;
    for (const tour of ['java', 'ring']) {
      const frame = await frameOf(page, `index.html?embed=1&lang=en&tour=${tour}&step=1`, width, height);
      for (let step = 1; step <= TOURS[tour]; step++) {
        if (step > 1) await frame.click('section.tour button.next');
        await frame.waitForFunction(tourSettled, [tour, step]);
        const seen = await frame.evaluate(() => {
          const box = (s) => document.querySelector(s)?.getBoundingClientRect();
          const narration = document.querySelector('section.tour .narration');
          const line = parseFloat(getComputedStyle(narration).lineHeight);
          const n = narration.getBoundingClientRect();
          return { ring: box('canvas.ring').height, narrationTop: n.top, firstLineBottom: n.top + line, narrationShown: n.height >= line - 1,
            prev: box('section.tour button.prev'), next: box('section.tour button.next'), error: box('p.error') };
        });
        const where = `${tour} step ${step} at ${width}×${height}`;
        // Words before the ring (issue 49): a frame this small is text first, and the ring
        // takes the height left — drawn at a size that reads, or not at all.
        assert.ok(seen.ring === 0 || seen.ring >= 80, `${where}: ring ${seen.ring} px`);
        assert.ok(seen.narrationShown && seen.narrationTop >= 0 && seen.firstLineBottom <= height, `${where}: narration's first line ${seen.narrationTop}–${seen.firstLineBottom}`);
        for (const b of [seen.prev, seen.next, seen.error].filter(Boolean)) {
          assert.ok(b.top >= 0 && b.bottom <= height + 0.5 && b.left >= 0 && b.right <= width + 0.5 && b.height > 0, `${where}: ${JSON.stringify(b)} out of the frame`);
        }
        if (width === 720 && tour === 'java' && step === 3) {
          await (await page.$('#probe')).screenshot({ path: `target/e2e/55-embed-tour-${width}x${height}.png` });
        }
      }
      if (width !== 720 && tour === 'java') {
        await (await page.$('#probe')).screenshot({ path: `target/e2e/55-embed-tour-${width}x${height}.png` });
      }
    }
  });
}

test('at 320×240 the embed says what moved in full, the keys moved between survivors included', async () => {
  const { page } = browser;
  // Mod-N: adding a server moves keys between servers the change left alone.
  const frame = await frameOf(page, 'index.html?embed=1&lang=en&algo=modn&nodes=A,B,C&keys=0..100000', 320, 240);
  await frame.click('.embed-bar button.primary');
  await frame.waitForFunction(() => document.querySelector('.readout .moved-line'));
  const between = Number((await frame.textContent('.readout')).match(/left alone: ([\d,]+)/)[1].replace(/,/g, ''));
  assert.ok(between > 0);
  const line = await frame.textContent('.moved-short');
  assert.match(line, new RegExp(`^[\\d,]+ of 100,000 moved — ideal 25,000; ${between.toLocaleString('en-US')} between survivors$`));
  const fit = await frame.evaluate(() => {
    const el = document.querySelector('.moved-short');
    const b = el.getBoundingClientRect();
    return { wide: el.scrollWidth <= el.clientWidth, tall: el.scrollHeight <= el.clientHeight + 1, right: b.right, bottom: b.bottom };
  });
  assert.deepEqual([fit.wide, fit.tall], [true, true], `the line is cut: ${JSON.stringify(fit)}`);
  assert.ok(fit.right <= 320 && fit.bottom <= 240, JSON.stringify(fit));
  await (await page.$('#probe')).screenshot({ path: 'target/e2e/56-embed-320x240-survivors.png' });
});

// Issue 53: a host that floods its frame with commands can still count on the events: every
// change it caused is in some `changed` event's `changes`, every refusal in some `error`
// event's `count` — together exactly one per command, however the page batched them.
test('a flood of host commands is accounted for exactly: changes plus refusals equal the commands sent', async () => {
  const { page } = browser;
  const frame = await listenedFrame(page);
  const sent = 300;
  await page.evaluate((n) => {
    const w = document.getElementById('probe').contentWindow;
    for (let i = 0; i < n; i++) w.postMessage({ 'hashring-lab': 1, command: i % 2 ? 'remove' : 'add', ...(i % 2 ? {} : { name: 'E' }) }, '*');
    // A number or null as a name is refused, not an unnamed add.
    w.postMessage({ 'hashring-lab': 1, command: 'add', name: 5 }, '*');
    w.postMessage({ 'hashring-lab': 1, command: 'add', name: null }, '*');
  }, sent);
  const accounted = () => page.evaluate(() => window.heard.reduce((a, e) => a + (e.event === 'changed' ? e.changes : e.event === 'error' ? e.count : 0), 0));
  await page.waitForFunction((n) => window.heard.reduce((a, e) => a + (e.event === 'changed' ? e.changes : e.event === 'error' ? e.count : 0), 0) >= n, sent + 2);
  // Settled: the last event is in, and nothing more comes with the next frames.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  assert.equal(await accounted(), sent + 2);
  const events = await page.evaluate(() => window.heard);
  const names = events.filter((e) => e.event === 'error').map((e) => e.message);
  assert.ok(names.some((m) => m === '"name" must be text (a server\'s name), not the number 5'), names.join('\n'));
  assert.ok(names.some((m) => m === '"name" must be text (a server\'s name), not null'), names.join('\n'));
  // 150 adds of E and 150 removes of the last server: the cluster is as it was.
  assert.deepEqual((await tableCounts(frame)).map((r) => r.name), ['A', 'B', 'C']);
});
