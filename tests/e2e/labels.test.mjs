// Legible at real size (issue 49): with a real cluster's names — `cache-0N.prod.example.com:11211`
// and `10.0.0.N:80` — every one of the 27 algorithms draws one marker per server, none on
// another, and no server label covers the band, the keys inside it, a marker or another
// label, at laptop, desktop and phone sizes and presenting. The page's label layout writes
// its boxes onto the canvas (`data-labels`, `data-markers`, `data-band`), so the test checks
// the layout the page drew, not a guess at pixels. A contact sheet per size is kept in
// target/e2e/49-labels-*.png and looked at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { serveDist, openBrowser, ready, cli, shots, capture, captureElement, contactSheet } from './harness.mjs';

let server;
before(async () => { server = await serveDist(); });
after(async () => { await server?.close(); });

const FQDN = Array.from({ length: 6 }, (_, i) => `cache-0${i + 1}.prod.example.com:11211`);
const IPS = Array.from({ length: 6 }, (_, i) => `10.0.0.${i + 1}:80`);
const OSDS = Array.from({ length: 6 }, (_, i) => `osd.${i}`);
const KEYS = encodeURIComponent('key-{i}:0..3000');
const algos = cli(['compare', '--nodes', 'A,B', '--keys', '0..2', '--format', 'csv'])
  .trim().split('\n').slice(1).map((line) => line.split(',')[0]);

/** The layout the ring canvas drew: labels `{id, x, y, w, h}`, markers `{id, x, y, r}`, the
 * band's centre and outer radius. */
async function layout(page) {
  return page.evaluate(() => {
    const c = document.querySelector('canvas.ring');
    const rows = (s, keys) => (s || '').split(';').filter(Boolean)
      .map((r) => Object.fromEntries(r.split(' ').map((v, i) => [keys[i], Number(v)])));
    const [cx, cy, outer] = c.dataset.band.split(' ').map(Number);
    return {
      labels: rows(c.dataset.labels, ['id', 'x', 'y', 'w', 'h']),
      markers: rows(c.dataset.markers, ['id', 'x', 'y', 'r']),
      band: { cx, cy, outer },
      width: c.clientWidth,
      height: c.clientHeight,
    };
  });
}

/** What is wrong with a layout: labels over the band, a marker or each other; markers on
 * one another; a live server without its marker. */
function faults({ labels, markers, band, width, height }, servers) {
  const out = [];
  const near = (r, x, y) => Math.hypot(Math.min(Math.max(x, r.x), r.x + r.w) - x, Math.min(Math.max(y, r.y), r.y + r.h) - y);
  const onScreen = (m) => m.x >= 0 && m.y >= 0 && m.x <= width && m.y <= height;
  const ids = markers.filter(onScreen).map((m) => m.id).sort((a, b) => a - b);
  if (ids.length !== servers || new Set(ids).size !== servers) out.push(`markers ${ids.join(',')} for ${servers} servers`);
  for (const [i, m] of markers.entries()) {
    for (const n of markers.slice(i + 1)) {
      if (Math.hypot(m.x - n.x, m.y - n.y) < m.r + n.r - 1) out.push(`markers ${m.id} and ${n.id} overlap`);
    }
  }
  for (const [i, l] of labels.entries()) {
    if (near(l, band.cx, band.cy) < band.outer) out.push(`label ${l.id} covers the band`);
    for (const m of markers) if (near(l, m.x, m.y) < m.r) out.push(`label ${l.id} covers marker ${m.id}`);
    for (const k of labels.slice(i + 1)) {
      // (Half a pixel apart at most: the boxes are written to a tenth of a pixel.)
      const e = 0.5;
      if (l.x + e < k.x + k.w && k.x + e < l.x + l.w && l.y + e < k.y + k.h && k.y + e < l.y + l.h) out.push(`labels ${l.id} and ${k.id} overlap`);
    }
  }
  return out;
}

const VIEWS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844, phone: true },
  { width: 1920, height: 1080, present: true },
];

for (const view of VIEWS) {
  const name = `${view.width}×${view.height}${view.present ? ' presenting' : ''}`;
  test(`${name}: every algorithm with real names draws one marker per server and no label over data`, async () => {
    const b = await openBrowser({ width: view.width, height: view.height, scale: view.phone ? 2 : 1, touch: !!view.phone });
    const { page } = b;
    const problems = [];
    const sheet = [];
    try {
      for (const algo of algos) {
        for (const names of [FQDN, IPS]) {
          const nodes = algo === 'ceph' ? OSDS : names;
          if (algo === 'ceph' && names === IPS) continue;
          await page.goto(`${server.origin}/?lang=en&algo=${algo}&nodes=${encodeURIComponent(nodes.join(','))}&keys=${KEYS}${view.present ? '&present=1' : ''}`);
          await ready(page);
          await page.waitForFunction(() => document.querySelector('canvas.ring').dataset.markers !== undefined);
          const drawn = await layout(page);
          for (const f of faults(drawn, nodes.length)) problems.push(`${algo} (${nodes[0]}…): ${f}`);
          // Most labels find room: a ring with no names at all would pass the checks above.
          if (drawn.labels.length < 4) problems.push(`${algo} (${nodes[0]}…): only ${drawn.labels.length} labels`);
          if (names === FQDN) {
            const file = path.join(shots, 'labels', `${view.width}-${view.present ? 'present-' : ''}${algo}.png`);
            await mkdir(path.dirname(file), { recursive: true });
            await captureElement(page, '.ring-wrap', file);
            sheet.push({ algo, file });
          }
        }
      }
      assert.deepEqual(problems, []);
      // The contact sheet, looked at.
      await contactSheet(b.context, sheet, path.join(shots, `49-labels-${view.width}${view.present ? '-present' : ''}.png`));
    } finally {
      await b.context.close();
    }
  });
}

// Level of detail (issue 49, item 3): 800 vnodes and 50,000 keys (the java tour) on a
// 2,000-pixel circle are too fine to draw one by one, so the band sums each server's arcs
// into one arc as long as its share — measured here in the canvas's pixels — and the
// centre says so; zoomed in 64 times, the true arcs and each vnode's mark come back.
test('a dense ring shows each server’s share as one arc, and its vnodes when zoomed in', async () => {
  const b = await openBrowser({ width: 1440, height: 900 });
  try {
    const { page } = b;
    await page.goto(`${server.origin}/?lang=en&tour=java&step=1`);
    await ready(page);
    await page.waitForFunction(() => document.querySelector('canvas.ring').dataset.bandDetail === 'summed');
    const measured = await page.evaluate(() => {
      const shares = Object.fromEntries([...document.querySelectorAll('table.shares tbody tr')]
        .map((r) => [r.querySelector('th').textContent, parseFloat(r.querySelector('td').textContent) / 100]));
      const swatches = [...document.querySelectorAll('table.counts tbody tr')].map((r) => ({
        name: r.querySelector('th').textContent.trim(), fill: r.querySelector('svg.swatch rect').getAttribute('fill'),
      }));
      const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      const rgb = (fill) => { probe.fillStyle = fill; probe.fillRect(0, 0, 1, 1); return [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)]; };
      const c = document.querySelector('canvas.ring');
      const scale = c.width / c.clientWidth;
      const [cx, cy, outer, band] = c.dataset.band.split(' ').map(Number);
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      // Round the middle of the summed arcs (the band's outer three quarters).
      const r = outer - band * 0.375;
      const counts = swatches.map(() => 0);
      const samples = 7200;
      for (let k = 0; k < samples; k++) {
        const a = (k / samples) * 2 * Math.PI;
        const x = Math.round((cx + r * Math.sin(a)) * scale);
        const y = Math.round((cy - r * Math.cos(a)) * scale);
        const i = (y * c.width + x) * 4;
        swatches.forEach((s, n) => {
          const [R, G, B] = rgb(s.fill);
          if (Math.abs(data[i] - R) + Math.abs(data[i + 1] - G) + Math.abs(data[i + 2] - B) <= 12) counts[n]++;
        });
      }
      const seen = counts.reduce((x, y) => x + y, 0);
      return { seen: seen / samples, rows: swatches.map((s, n) => ({ name: s.name, pixels: counts[n] / seen, share: shares[s.name] })) };
    });
    // The markers' dark rims cover a little of the band; the rest is each server's colour.
    assert.ok(measured.seen > 0.9, `${measured.seen} of the band is in a server's colour`);
    for (const row of measured.rows) {
      assert.ok(Math.abs(row.pixels - row.share) < 0.02, `${row.name}: ${row.pixels} of the band's pixels for a ${row.share} share`);
    }
    const centre = await page.evaluate(() => document.querySelector('canvas.ring').dataset.bandDetail);
    assert.equal(centre, 'summed');
    await capture(page, path.join(shots, '49-dense-summed.png'));
    // Zoomed in 64 times: the true arcs, a mark per vnode in view.
    for (let k = 1; k <= 6; k++) {
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.waitForFunction((z) => Number(document.querySelector('canvas.ring').dataset.zoom) === z, 2 ** k);
    }
    await page.waitForFunction(() => /^points \d+$/.test(document.querySelector('canvas.ring').dataset.bandDetail));
    const points = Number((await page.evaluate(() => document.querySelector('canvas.ring').dataset.bandDetail)).split(' ')[1]);
    assert.ok(points >= 4, `${points} vnodes marked at 64×`);
    await capture(page, path.join(shots, '49-dense-zoomed.png'));
  } finally {
    await b.context.close();
  }
});

// twemproxy's fnv1a_64, cut to 32 bits, bunches 3,000 similar names into a few spikes of one
// quadrant (issue 49): the ring says so in words, where ketama's spread keys need no note.
test('keys that bunch up because of the hash are said to, in the ring\'s centre', async () => {
  const b = await openBrowser({ width: 1440, height: 900 });
  const { page } = b;
  try {
    for (const [algo, bunched] of [['twemproxy', true], ['ketama', false]]) {
      await page.goto(`${server.origin}/?lang=en&algo=${algo}&nodes=${encodeURIComponent(FQDN.join(','))}&keys=0..3000`);
      await ready(page);
      await page.waitForFunction(() => document.querySelector('canvas.ring').dataset.centreNotes !== undefined);
      const notes = await page.evaluate(() => document.querySelector('canvas.ring').dataset.centreNotes);
      assert.equal(/bunch up/.test(notes), bunched, `${algo}: "${notes}"`);
      if (bunched) await capture(page, path.join(shots, '49-twemproxy-bunched.png'));
    }
  } finally {
    await b.context.close();
  }
});
