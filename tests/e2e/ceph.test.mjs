// Ceph's failure domains (issue 52): a pasted CRUSH map of 3 hosts × 4 OSDs (Debian's
// crushtool wrote tests/reference/crush/3-hosts.txt) is drawn as the map CRUSH descends —
// an inner ring of the OSDs, each host's side by side under its name — and a followed
// object's copies are joined to three OSDs on three different hosts, the ones its lookup
// names. "Add host" racks a fourth host like the others, and the readout counts the
// placement groups it remapped and the copies that moved, as the command line does. All
// read from the page's own layout (data-domains, data-domain-labels, data-copies) and its
// pixels.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serveDist, openBrowser, ready, screenshot, cli, tableCounts } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await openBrowser({ width: 1440, height: 900 }); });
after(async () => { await browser?.context.close(); await server?.close(); });

const MAP = 'tests/reference/crush/3-hosts.txt';

/** The ring's inner ring as the page laid it out: OSDs [{osd, x, y, r, host}], the
 * buckets' names [{name, x, y, w, h}], the followed object's copies [{osd, x, y}], the
 * ring's centre. */
async function layout(page) {
  const a = await page.evaluate(() => {
    const [ring, overlay] = ['canvas.ring', 'canvas.ring-overlay'].map((s) => document.querySelector(s));
    return { domains: ring.dataset.domains, labels: ring.dataset.domainLabels, band: ring.dataset.band, copies: overlay.dataset.copies ?? '' };
  });
  const rows = (text) => (text ? text.split(';').map((r) => r.split(' ')) : []);
  const [cx, cy] = a.band.split(' ').map(Number);
  return {
    centre: [cx, cy],
    osds: rows(a.domains).map(([osd, x, y, r, host]) => ({ osd, x: +x, y: +y, r: +r, host })),
    labels: rows(a.labels).map(([name, x, y, w, h]) => ({ name, x: +x, y: +y, w: +w, h: +h })),
    copies: rows(a.copies).map(([osd, x, y]) => ({ osd, x: +x, y: +y })),
  };
}

/** The colour under each point of the ring canvas (CSS pixels), and each server's swatch
 * colour in the counts table, as [r, g, b]. */
async function colours(page, points) {
  return page.evaluate((points) => {
    const c = document.querySelector('canvas.ring');
    const k = c.width / c.getBoundingClientRect().width;
    const ctx = c.getContext('2d');
    const at = points.map(([x, y]) => [...ctx.getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data.slice(0, 3)]);
    const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const swatch = {};
    for (const r of document.querySelectorAll('table.counts tbody tr')) {
      probe.fillStyle = r.querySelector('svg.swatch rect').getAttribute('fill');
      probe.fillRect(0, 0, 1, 1);
      swatch[r.querySelector('th').childNodes[0].textContent.trim()] = [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    }
    return { at, swatch };
  }, points);
}

const near = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) <= 24;

/** The hosts in the order their OSDs come round the ring, runs of one host merged. */
function hostRuns({ centre: [cx, cy], osds }) {
  const angle = (o) => (Math.atan2(o.x - cx, cy - o.y) + 2 * Math.PI) % (2 * Math.PI);
  const round = [...osds].sort((a, b) => angle(a) - angle(b)).map((o) => o.host);
  const runs = round.filter((h, i) => h !== round[(i + round.length - 1) % round.length]);
  return runs.length ? runs : round.slice(0, 1);
}

async function follow(page, key) {
  await page.fill('#lookup-key', key);
  await page.getByRole('button', { name: 'Look up', exact: true }).click();
  await page.waitForFunction((k) => document.querySelector('.explain')?.textContent.includes(`"${k}"`), key);
  await page.waitForFunction((k) => document.querySelector('canvas.ring-overlay').dataset.copiesOf === k, key);
  return page.textContent('.lookup .explain');
}

test("a pasted CRUSH map's hosts are drawn as groups of OSDs, and a followed object's three copies land on three hosts", async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&pg_num=64&keys=${encodeURIComponent('obj-{i}:0..2000')}`);
  await ready(page);
  await page.click('details.export summary');
  await page.fill('#config-text', readFileSync(MAP, 'utf8'));
  await page.click('button.use-config');
  await page.waitForFunction(() => new URL(location).searchParams.get('crush') && !document.querySelector('.summary progress'));
  await ready(page);
  // The page's scenario is the map's, as the command line reads it: every object where
  // the command line puts it (its primary, in the counts per server).
  const pgNumPage = new URL(page.url()).searchParams.get('pg_num') ?? '32';
  const counted = cli(['simulate', '--config', MAP, '--pg-num', pgNumPage, '--keys', 'obj-{i}:0..2000', '--format', 'json']);
  const want = JSON.parse(counted).steps[0].counts;
  const got = Object.fromEntries((await tableCounts(page)).map((r) => [r.name, r.keys]));
  assert.deepEqual(got, want);
  // And as Ceph does: the first objects of osdmaptool's record over this map (pool of 64
  // groups) go to the placement group and acting set osdmaptool gave them.
  assert.equal(pgNumPage, '64');
  const recorded = readFileSync('tests/reference/ceph-hierarchy.txt', 'utf8').split('\n');
  const first = recorded.indexOf('scenario 3-hosts map=3-hosts pg_num=64') + 1;
  for (const row of recorded.slice(first, first + 12)) {
    const [name, pg, , acting] = row.split(' ');
    const words = await follow(page, name);
    assert.match(words, new RegExp(`placement group 1\\.${pg};`), name);
    const named = [...words.matchAll(/(osd\.\d+) \(host [\w-]+\)/g)].map((m) => m[1]);
    assert.equal(named.join(','), acting, `${name}: ${words}`);
  }
  const before = await layout(page);
  // Every OSD on the inner ring, each host's four side by side: round the ring the hosts
  // come as three runs, one each.
  assert.equal(before.osds.length, 12);
  assert.deepEqual(before.osds.map((o) => o.osd), [...Array(12).keys()].map((i) => `osd.${i}`));
  assert.deepEqual(hostRuns(before), ['node-a', 'node-b', 'node-c']);
  for (const host of ['node-a', 'node-b', 'node-c']) {
    assert.equal(before.osds.filter((o) => o.host === host).length, 4, host);
  }
  // Each spot in its OSD's colour (the counts table's swatch), readable (≥ 5 px across).
  const seen = await colours(page, before.osds.map((o) => [o.x, o.y]));
  before.osds.forEach((o, i) => {
    assert.ok(near(seen.at[i], seen.swatch[o.osd]), `${o.osd} is drawn ${seen.at[i]}, its colour is ${seen.swatch[o.osd]}`);
    assert.ok(o.r * 2 >= 5, `${o.osd}'s spot is ${o.r * 2} px`);
  });
  // Each host named by its own OSDs, whole, and no name over a spot.
  assert.deepEqual(before.labels.map((l) => l.name).sort(), ['node-a', 'node-b', 'node-c']);
  for (const l of before.labels) {
    const mid = [l.x + l.w / 2, l.y + l.h / 2];
    const nearest = before.osds.reduce((a, o) => (Math.hypot(o.x - mid[0], o.y - mid[1]) < Math.hypot(a.x - mid[0], a.y - mid[1]) ? o : a));
    assert.equal(nearest.host, l.name, `${l.name}'s name is nearest ${nearest.osd}`);
    for (const o of before.osds) {
      const dx = Math.max(l.x - o.x, 0, o.x - (l.x + l.w));
      const dy = Math.max(l.y - o.y, 0, o.y - (l.y + l.h));
      assert.ok(Math.hypot(dx, dy) >= o.r, `${l.name}'s name covers ${o.osd}`);
    }
  }
  // Followed objects: the lines end at the three OSDs of the acting set the lookup names,
  // in its order, on three different hosts — the hosts the lookup names.
  for (const key of ['obj-1', 'obj-2', 'obj-3', 'obj-4', 'obj-5']) {
    const words = await follow(page, key);
    const named = [...words.matchAll(/(osd\.\d+) \(host ([\w-]+)\)/g)].map((m) => [m[1], m[2]]);
    assert.equal(named.length, 3, words);
    const { copies, osds } = await layout(page);
    assert.deepEqual(copies.map((c) => c.osd), named.map((n) => n[0]), key);
    const hosts = copies.map((c) => {
      const spot = osds.find((o) => o.osd === c.osd);
      assert.ok(Math.hypot(spot.x - c.x, spot.y - c.y) < 1, `${key}: the line to ${c.osd} ends at its spot`);
      return spot.host;
    });
    assert.deepEqual(hosts, named.map((n) => n[1]), key);
    assert.equal(new Set(hosts).size, 3, `${key}'s copies on ${hosts}`);
  }
  await screenshot(page, '95-ceph-failure-domains');
  // Add host: a fourth host of four hdd OSDs under the root; the picture draws it as a
  // fourth group, and the readout counts what the command line counts for that step.
  assert.equal(await page.inputValue('#new-server'), '');
  assert.equal(await page.getAttribute('#new-server', 'placeholder'), 'node-d');
  await page.getByRole('button', { name: 'Add host' }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 16);
  await ready(page);
  const after = await layout(page);
  assert.deepEqual(hostRuns(after), ['node-a', 'node-b', 'node-c', 'node-d']);
  assert.deepEqual(after.osds.filter((o) => o.host === 'node-d').map((o) => o.osd), ['osd.12', 'osd.13', 'osd.14', 'osd.15']);
  const pgNum = new URL(page.url()).searchParams.get('pg_num') ?? '32';
  const report = cli(['simulate', '--config', MAP, '--pg-num', pgNum, '--keys', '0..2',
    '--step', 'add-host:node-d@default=osd.12:hdd+osd.13:hdd+osd.14:hdd+osd.15:hdd', '--moved-pgs', '/dev/null']);
  const [, remapped, groups, copies, primaries] = report.match(/placement groups remapped (\d+) of (\d+) {2}copies moved (\d+) {2}primaries changed (\d+)/);
  const line = await page.textContent('.readout .groups-line');
  assert.equal(line, `placement groups remapped: ${remapped} of ${groups} · copies moved: ${copies} of ${3 * groups} · primaries changed: ${primaries}`);
  assert.ok(Number(copies) > Number(primaries), line);
  await follow(page, 'obj-1');
  await screenshot(page, '96-ceph-host-added');
  // Remove host takes node-d out with its OSDs: the map as it was, and every group the
  // host took a copy of is remapped back — the same counts.
  await page.getByRole('button', { name: 'Remove host' }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 12);
  await ready(page);
  assert.deepEqual(hostRuns(await layout(page)), ['node-a', 'node-b', 'node-c']);
  assert.equal((await page.textContent('.readout h2')).trim(), 'Removed host node-d and its OSDs');
  assert.equal(await page.textContent('.readout .groups-line'), line);
});
