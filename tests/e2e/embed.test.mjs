// Embeds that explain (issue 16): in frames from 320×240 up, the line saying what moved is
// in view after a change, the buttons carry words, nothing overlaps and nothing scrolls
// inside the frame; the sample documentation page drives a frame and follows its events.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, openBrowser, ready, tableCounts, fits } from './harness.mjs';

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
    await page.screenshot({ path: `target/e2e/52-embed-${width}x${height}.png`, clip: { x: 20, y: 20, width: width + 20, height: height + 20 } });
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

test('a refused host command is answered by exactly one error event, every time, and nothing else', async () => {
  const { page } = browser;
  const frame = await frameOf(page, `${server.origin}/?embed=1&lang=en&nodes=A,B,C&keys=0..500`, 480, 360);
  await page.evaluate(() => {
    window.heard = [];
    addEventListener('message', (e) => {
      if (e.source === document.getElementById('probe').contentWindow && e.data?.['hashring-lab'] === 1 && e.data.event !== 'resized') window.heard.push(e.data);
    });
  });
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
