// The followed key's walk, magnified (issue 49, item 3): on a ring of 160 points a server the
// arc from a key to the point that takes it is a pixel or two long, and HAProxy's and
// ingress-nginx's rules were not drawn at all. With a real cluster's names, at the desktop
// sizes, following a key shows the loupe under the ring's title: inside
// the inner circle over no key, its points far enough apart to tell, the chosen point in
// the colour of the server the command line names, on the side its rule says. The
// screenshots (target/e2e/49-loupe-*.png) are looked at. (A phone's ring, ~135 px in radius,
// has no room for it under the title: its words would be squeezed; the walk is told in the
// lookup card there.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, openBrowser, ready, cli, screenshot } from './harness.mjs';

let server;
before(async () => { server = await serveDist(); });
after(async () => { await server.close(); });

const FQDN = Array.from({ length: 6 }, (_, i) => `cache-0${i + 1}.prod.example.com:11211`).join(',');
// The rule by algorithm: where the chosen point lies from the key (clockwise is right).
const RULES = { ketama: 'right', 'envoy-ring': 'right', haproxy: 'nearer', 'ingress-nginx': 'left' };
const KEYS = ['key-7', 'user:1001'];

/** Server colours' pixels in a rectangle of a canvas: how many of each row's swatch colour. */
async function coloursIn(page, selector, [x, y, w, h]) {
  return page.evaluate(({ selector, x, y, w, h }) => {
    const rows = [...document.querySelectorAll('table.counts tbody tr')].map((r) => ({
      name: r.querySelector('th').childNodes[0].textContent.trim(),
      fill: r.querySelector('svg.swatch rect').getAttribute('fill'),
    }));
    const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const rgb = (fill) => { probe.fillStyle = fill; probe.fillRect(0, 0, 1, 1); return [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)]; };
    const c = document.querySelector(selector);
    const k = c.width / c.getBoundingClientRect().width;
    const { data } = c.getContext('2d').getImageData(Math.round(x * k), Math.round(y * k), Math.max(1, Math.round(w * k)), Math.max(1, Math.round(h * k)));
    return rows.map((r) => {
      const [R, G, B] = rgb(r.fill);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] > 200 && Math.abs(data[i] - R) + Math.abs(data[i + 1] - G) + Math.abs(data[i + 2] - B) <= 12) n++;
      }
      return { name: r.name, pixels: n };
    });
  }, { selector, x, y, w, h });
}

for (const [width, height] of [[1280, 720], [1440, 900], [1920, 1080]]) {
  test(`at ${width}×${height}, a followed key's walk on a dense ring is magnified, by each ring system's rule`, async () => {
    const { page, context, problems } = await openBrowser({ width, height });
    try {
      for (const [algo, side] of Object.entries(RULES)) {
        const query = `?algo=${algo}&nodes=${encodeURIComponent(FQDN)}&keys=random:3000`;
        await page.goto(`${server.origin}/${query}`);
        await ready(page);
        for (const key of KEYS) {
          const [truth] = JSON.parse(cli(['locate', '--algo', algo, '--nodes', FQDN, '--format', 'json', key]));
          const was = await page.locator('canvas.ring-overlay').getAttribute('data-loupe');
          await page.locator('.lookup input').first().fill(key);
          await page.locator('.lookup input').first().press('Enter');
          // This key's loupe, drawn (not the last key's, still on the overlay).
          await page.waitForFunction(([k, was]) => document.querySelector('.lookup .explain')?.textContent.includes(k)
            && ![undefined, '', was].includes(document.querySelector('canvas.ring-overlay').dataset.loupe), [key, was]);
          const [x, y, w, h, keyX, chosenX, gap] = (await page.locator('canvas.ring-overlay').getAttribute('data-loupe')).split(' ').map(Number);
          const [cx, cy, r, band] = (await page.locator('canvas.ring').getAttribute('data-band')).split(' ').map(Number);
          const what = `${algo} ${key} at ${width}×${height}`;
          // Inside the inner circle, clear of the keys' band, and big enough to read.
          for (const [px, py] of [[x, y], [x + w, y], [x, y + h], [x + w, y + h]]) {
            assert.ok(Math.hypot(px - cx, py - cy) < r - band * 2, `${what}: corner ${px},${py} reaches the keys`);
          }
          assert.ok(w >= 200 && h >= 50, `${what}: a ${w}×${h} loupe`);
          // It covers no data: under it, the ring's layer has no server's colour.
          const under = await coloursIn(page, 'canvas.ring', [x, y, w, h]);
          const covered = under.reduce((a, s) => a + s.pixels, 0);
          assert.ok(covered < w * h * 0.002, `${what}: the loupe covers ${covered} px of data ${JSON.stringify(under)}`);
          // The points either side of the key stand apart; the key and the chosen point lie inside.
          assert.ok(gap >= 12, `${what}: points ${gap} px apart`);
          for (const at of [keyX, chosenX]) assert.ok(at > x && at < x + w, `${what}: ${at} outside ${x}..${x + w}`);
          // The chosen point is the owner's: its column on the loupe is mostly its colour.
          const column = await coloursIn(page, 'canvas.ring-overlay', [chosenX - 2, y, 4, h]);
          const top = column.reduce((a, s) => (s.pixels > a.pixels ? s : a));
          assert.equal(top.name, truth.server, `${what}: ${JSON.stringify(column)}`);
          // On the side its rule says.
          if (side === 'right') assert.ok(chosenX >= keyX, `${what}: ${chosenX} < ${keyX}`);
          if (side === 'left') assert.ok(chosenX <= keyX, `${what}: ${chosenX} > ${keyX}`);
        }
        await screenshot(page, `49-loupe-${algo}-${width}`);
      }
      assert.deepEqual(problems.console, []);
    } finally {
      await context.close();
    }
  });
}

test('a walk long enough to read on the ring is not magnified, nor a picture without a point walk', async () => {
  const { page, context } = await openBrowser({ width: 1280, height: 720 });
  try {
    for (const algo of ['ring', 'jump']) {
      await page.goto(`${server.origin}/?algo=${algo}&nodes=A,B,C&vnodes=1&keys=random:300`);
      await ready(page);
      await page.locator('.lookup input').first().fill('key-7');
      await page.locator('.lookup input').first().press('Enter');
      await page.waitForFunction(() => document.querySelector('.lookup .explain')?.textContent.includes('key-7'));
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
      assert.equal(await page.locator('canvas.ring-overlay').getAttribute('data-loupe'), '', algo);
    }
  } finally {
    await context.close();
  }
});
