// The scenario lives in the URL: seed 000's link shows seed 000's numbers; a bad link
// shows a message and the default scenario; the page works under a sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { serveDist, openBrowser, ready, tableCounts, screenshot, assertRingShowsServers } from './harness.mjs';

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
  // The README's picture is this one, taken afresh on every run.
  const shot = await screenshot(page, '11-seed000-removed-A');
  await copyFile(shot, path.join(path.dirname(shot), '..', '..', 'docs', 'screenshot.png'));
});

test('a bad link names every problem, falls back to the default, and keeps the link', async () => {
  const { page } = browser;
  const link = '?vnodes=0&nodes=A,A&freeze=abc&freeze=1';
  await page.goto(`${server.origin}/${link}`);
  await ready(page);
  const alert = await page.textContent('[role=alert]');
  assert.match(alert, /vnodes '0' must be a whole number from 1 to 1000/);
  assert.match(alert, /server name 'A' appears twice/);
  assert.match(alert, /freeze 'abc' must be a number of milliseconds/);
  assert.match(alert, /'freeze' is given more than once/);
  assert.match(alert, /Showing the default scenario instead/);
  assert.equal((await tableCounts(page)).length, 4);
  assert.equal(await page.evaluate(() => location.search), link, 'the address bar keeps the link');
  await screenshot(page, '12-bad-link');
  // The first change writes the scenario on screen into the address bar.
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 5);
  assert.match(await page.evaluate(() => location.search), /^\?nodes=A,B,C,D,E/);
});

test('each algorithm shows only the controls that matter to it', async () => {
  const { page } = browser;
  for (const [algo, hash, vnodes, weight] of [
    ['ring', true, true, true], ['modn', true, false, false], ['rendezvous', true, false, true],
    ['carp', false, false, false], ['slots', false, false, true],
  ]) {
    await page.goto(`${server.origin}/?algo=${algo}&keys=0..500`);
    await ready(page);
    assert.equal(await page.locator('#hash').count(), hash ? 1 : 0, `${algo} hash`);
    assert.equal(await page.locator('#vnodes').count(), vnodes ? 1 : 0, `${algo} vnodes`);
    assert.equal(await page.locator('input.weight').count(), weight ? 4 : 0, `${algo} weights`);
  }
});

test('a large per-key scenario loads in steps behind a progress bar', async () => {
  const { page } = browser;
  const nodes = Array.from({ length: 50 }, (_, i) => `s${i}`).join(',');
  await page.goto(`${server.origin}/?algo=carp&nodes=${nodes}&keys=random:300000`);
  await page.waitForSelector('.summary progress');
  assert.match(await page.textContent('[role=status]'), /^(Hashing|Placing) keys: [\d,]+ of 300,000…/);
  // The page answers while it works.
  assert.equal(await page.evaluate(() => 6 * 7), 42);
  await screenshot(page, '17-loading-in-steps');
  await ready(page, 120000);
  assert.equal((await tableCounts(page)).reduce((a, r) => a + r.keys, 0), 300000);
  assert.equal(await page.evaluate(() => location.search.includes('random:300000')), true);
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
  // A server that has the page only under /docs/embed/: a file asked for from the root
  // would not load (and is listed), so the page must name everything relative to itself.
  const sub = await serveDist(undefined, { only: '/docs/embed/' });
  try {
    const { page } = browser;
    await page.goto(`${sub.origin}/docs/embed/?nodes=X,Y`);
    await ready(page);
    assert.deepEqual((await tableCounts(page)).map((r) => r.name), ['X', 'Y']);
    assert.deepEqual(sub.outside, [], 'nothing asked for outside the sub-path');
  } finally {
    await sub.close();
  }
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
    // The card stands under the ring, not over it; every row's buttons are on screen.
    const card = await phone.page.$eval('.hover-card', (c) => c.getBoundingClientRect().toJSON());
    assert.ok(card.top >= box.bottom - 1, `card at ${card.top}, ring ends at ${box.bottom}`);
    const right = await phone.page.$$eval('table.counts button', (bs) => Math.max(...bs.map((b) => b.getBoundingClientRect().right)));
    assert.ok(right <= 360, `buttons reach ${right}px on a 360px screen`);
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
    // Both layers: the static ring and the overlay with the walking keys.
    const pixels = (p) => p.$eval('.ring-wrap', (wrap) => {
      let h1 = 0x811c9dc5, lit = 0, moving = 0;
      for (const c of wrap.querySelectorAll('canvas')) {
        const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
        for (let i = 0; i < data.length; i++) { h1 = Math.imul(h1 ^ data[i], 16777619) >>> 0; }
        for (let i = 0; i < data.length; i += 4) {
          if (data[i] + data[i + 1] + data[i + 2] > 120) lit++;
          if (c.classList.contains('ring-overlay') && data[i + 3] > 0) moving++;
        }
      }
      return { hash: h1, lit, moving };
    });
    const [a, b] = await Promise.all(pages.map(pixels));
    assert.ok(a.lit > 5000, `picture mostly dark: ${a.lit}`);
    assert.ok(a.moving > 200, `no keys walking on the overlay: ${a.moving}`);
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

// Issue 15: a link whose keys load in steps opened on an empty grey circle that stayed
// empty until a click. Every picture kind, at 150,000 and 1,000,000 keys, must show each
// server's colour and the loaded counts without any click.
test('a link that loads in steps draws the full ring without a click, for every picture kind', async () => {
  const { page } = browser;
  const links = [
    ['ring', '?keys=0..150000', 40],
    ['ring', '?keys=0..1000000&vnodes=200', 800],
    ['jump', '?algo=jump&keys=0..150000', 0],
    ['jump', '?algo=jump&keys=0..1000000', 0],
    ['maglev', '?algo=maglev&keys=0..150000', null],
    ['maglev', '?algo=maglev&keys=0..1000000', null],
    ['carp', '?algo=carp&keys=0..150000', 0],
    ['carp', '?algo=carp&keys=0..1000000', 0],
    ['slots', '?algo=slots&keys=0..150000', null],
    ['slots', '?algo=slots&keys=0..1000000', null],
  ];
  for (const [algo, link, vnodes] of links) {
    await page.goto(`${server.origin}/${link}`);
    await ready(page, 120000);
    const keys = Number(link.match(/keys=0\.\.(\d+)/)[1]);
    const drawn = await page.$eval('canvas.ring', (c) => ({ ...c.dataset }));
    assert.equal(Number(drawn.drawnKeys), keys, `${link}: the ring was drawn with every key`);
    assert.equal(Number(drawn.drawnServers), 4, `${link}: four servers drawn`);
    if (vnodes !== null) assert.equal(Number(drawn.drawnVnodes), vnodes, `${link}: vnodes drawn`);
    assert.equal((await tableCounts(page)).reduce((a, r) => a + r.keys, 0), keys);
    await assertRingShowsServers(assert, page, 40, link);
    // The page's own first-paint mark stands for this drawing, not the placeholder's.
    assert.equal(await page.evaluate(() => performance.getEntriesByName('ring-painted').length), 1, `${link}: ring-painted`);
    if (keys === 1000000) await screenshot(page, `15-stepped-load-${algo}`);
  }
});
