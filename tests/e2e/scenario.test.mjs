// The scenario lives in the URL: seed 000's link shows seed 000's numbers; a bad link
// shows a message and the default scenario; the page works under a sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, openBrowser, ready, tableCounts, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await openBrowser(); });
after(async () => { await browser?.context.close(); await server?.close(); });

const SEED000 = '?algo=ring&hash=murmur64a-seed&vnodes=200&label={node}{i}'
  + '&nodes=127.1.1.1%23A,127.2.2.2%23B,127.3.3.3%23C,127.4.4.4%23D&keys=0..50000';

test("seed 000's link shows seed 000's counts", async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/${SEED000}`);
  await ready(page);
  assert.deepEqual(await tableCounts(page), [
    { name: '127.1.1.1#A', keys: 12162 }, { name: '127.2.2.2#B', keys: 11834 },
    { name: '127.3.3.3#C', keys: 12827 }, { name: '127.4.4.4#D', keys: 13177 },
  ]);
  await screenshot(page, '10-seed000');
  await page.getByRole('button', { name: 'Remove 127.1.1.1#A' }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 3);
  assert.deepEqual((await tableCounts(page)).map((r) => r.keys), [15114, 17190, 17696]);
  assert.match(await page.textContent('[role=status]'), /^Removed 127\.1\.1\.1#A: 12,162 of 50,000 keys moved \(24\.3%; ideal 25\.0%\)/);
  await screenshot(page, '11-seed000-removed-A');
});

test('a bad link shows what is wrong and falls back to the default scenario', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?vnodes=0`);
  await ready(page);
  const alert = await page.textContent('[role=alert]');
  assert.match(alert, /vnodes '0' must be a whole number from 1 to 1000/);
  assert.equal((await tableCounts(page)).length, 4);
  await screenshot(page, '12-bad-link');
});

test('adding a duplicate name shows a message and keeps the state', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/`);
  await ready(page);
  const before = await tableCounts(page);
  await page.fill('#new-server', 'B');
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.waitForSelector('[role=alert]');
  assert.match(await page.textContent('[role=alert]'), /a server named 'B' already exists/);
  assert.deepEqual(await tableCounts(page), before);
  await screenshot(page, '13-duplicate-name');
});

test('the page works under a sub-path', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/docs/embed/?nodes=X,Y`);
  await ready(page);
  assert.deepEqual((await tableCounts(page)).map((r) => r.name), ['X', 'Y']);
});

test('a phone-sized screen stacks the panel under the ring', async () => {
  const phone = await openBrowser({ width: 360, height: 740, scale: 2, touch: true });
  try {
    await phone.page.goto(`${server.origin}/`);
    await ready(phone.page);
    const ring = await phone.page.$eval('canvas.ring', (c) => c.getBoundingClientRect().toJSON());
    const table = await phone.page.$eval('table.counts', (t) => t.getBoundingClientRect().toJSON());
    assert.ok(ring.width <= 360 && ring.width > 250, `ring width ${ring.width}`);
    assert.ok(table.top > ring.bottom, 'table below the ring');
    const backing = await phone.page.$eval('canvas.ring', (c) => c.width);
    assert.ok(backing >= ring.width * 2 - 2, 'HiDPI backing store');
    // Touch has no hover: a tap on the ring line at 12 o'clock describes the vnode there.
    await phone.page.goto(`${server.origin}/?vnodes=300`);
    await ready(phone.page);
    const box = await phone.page.$eval('canvas.ring', (c) => c.getBoundingClientRect().toJSON());
    await phone.page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2 - 0.38 * box.width);
    await phone.page.waitForSelector('.hover-card');
    assert.match(await phone.page.textContent('.hover-card'), /^[A-D]#\d+position/);
    await screenshot(phone.page, '14-phone');
    assert.deepEqual(phone.problems.console, []);
  } finally {
    await phone.context.close();
  }
});

test('a 1,000,000-key scenario loads and responds to Add server', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?nodes=A,B,C,D,E,F,G,H,I,J&vnodes=200&keys=${encodeURIComponent('key-{i}:0..1000000')}`);
  await ready(page);
  const sum = (rows) => rows.reduce((a, r) => a + r.keys, 0);
  assert.equal(sum(await tableCounts(page)), 1_000_000);
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 11);
  assert.equal(sum(await tableCounts(page)), 1_000_000);
  assert.match(await page.textContent('[role=status]'), /^Added K: [\d,]+ of 1,000,000 keys moved \((\d+\.\d)%; ideal 9\.1%\)/);
  await screenshot(page, '15-million-keys');
});


test('same scenario, same picture: two pages draw identical pixels, with the clock frozen after a change', async () => {
  const other = await openBrowser();
  try {
    const url = `${server.origin}/?nodes=A,B,C,D&vnodes=40&keys=${encodeURIComponent('key-{i}:0..1500')}&freeze=700&utm_source=docs`;
    const pages = [browser.page, other.page];
    for (const page of pages) {
      await page.goto(url);
      await ready(page);
      await page.getByRole('button', { name: 'Add server' }).click();
      await page.waitForFunction(() => document.querySelector('canvas.ring').dataset.version === '1');
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
    }
    // Compare pixels (PNG encodings of equal pixels may differ byte for byte).
    const pixels = (p) => p.$eval('canvas.ring', (c) => {
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let h1 = 0x811c9dc5, lit = 0;
      for (let i = 0; i < data.length; i++) { h1 = Math.imul(h1 ^ data[i], 16777619) >>> 0; }
      for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] > 120) lit++;
      return { hash: h1, lit };
    });
    const [a, b] = await Promise.all(pages.map(pixels));
    assert.ok(a.lit > 5000, `picture mostly dark: ${a.lit}`);
    assert.deepEqual(a, b, 'the two pictures differ');
    // The page parameter survives the URL sync; the unknown one is ignored.
    assert.match(await browser.page.evaluate(() => location.search), /freeze=700/);
    await screenshot(browser.page, '16-frozen-mid-walk');
    const bad = await browser.page.goto(`${server.origin}/?freeze=soon`).then(() => ready(browser.page));
    assert.equal(bad, undefined);
    assert.match(await browser.page.textContent('[role=alert]'), /freeze 'soon' must be a number of milliseconds from 0 to 60000/);
  } finally {
    await other.context.close();
  }
});

test('no console errors and no request beyond 127.0.0.1', () => {
  assert.deepEqual(browser.problems.console, []);
  assert.deepEqual(browser.problems.outside, []);
});
