// Every algorithm draws its own picture: the same scenario (8 servers, 2,000 keys, the third
// server down) loaded for each of the 27 algorithms gives 27 pictures that differ pairwise
// by at least 5 % of the ring's pixels before any key is followed — except where the
// placements are equal by construction (jump and Guava) — and key-7's walk, then drawn on
// that picture, ends at the owner its lookup names. (PAIRS=1 prints the closest pairs.) The ring canvases (with their overlays) are kept in target/e2e/pictures/ and laid
// side by side in target/e2e/30-pictures-sheet.png, which is looked at.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { serveDist, openBrowser, ready, cli, shots, contactSheet, tableCounts, tourSettled, screenshot, captureElement } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await serveDist();
  browser = await openBrowser({ width: 1280, height: 720 });
});
after(async () => {
  await browser.context.close();
  await server.close();
});

const NODES = 'A,B,C,D,E,F,G,H';
const KEYS = encodeURIComponent('key-{i}:0..2000');
// The algorithms whose followed key is walked on their picture, and how.
const WALKS = {
  jump: 'hops', guava: 'hops', jumpback: 'hops', binomial: 'hops', flip: 'hops', power: 'hops',
  anchor: 'hops', memento: 'hops', dx: 'hops', multiprobe: 'probes', rendezvous: 'scores',
  carp: 'scores', modn: 'modulo', maglev: 'cell', 'envoy-maglev': 'cell', ceph: 'cell',
};
// A pixel differs when its colour does; a picture differs from another by the share of the
// ring's pixels that do, compared before any key is followed: each algorithm draws what it
// computes (mod-N's residues, rendezvous' and CARP's winning scores, the jump family's
// ranges, Anchor's and Dx's structures), not only where its keys end. Once, the nine bucket
// algorithms' pictures were 0.9 to 1.4 % apart, and later mod-N / rendezvous 0.8 %.
const MIN_APART = 0.05;

/** The ring as the reader sees it (the static layer and the overlay on top), 200 × 200, as
 * RGB bytes. */
async function ringPixels(page) {
  return page.evaluate(() => {
    const [ring, overlay] = ['canvas.ring', 'canvas.ring-overlay'].map((s) => document.querySelector(s));
    const side = 200;
    const c = document.createElement('canvas');
    c.width = side; c.height = side;
    const ctx = c.getContext('2d');
    // The ring's square (the canvas's middle), where every picture draws.
    const s = Math.min(ring.width, ring.height);
    const [x, y] = [(ring.width - s) / 2, (ring.height - s) / 2];
    for (const layer of [ring, overlay]) ctx.drawImage(layer, x, y, s, s, 0, 0, side, side);
    const { data } = ctx.getImageData(0, 0, side, side);
    // As base64 (a 120,000-number array took ~0.5 s to pass back).
    let bytes = '';
    for (let i = 0; i < data.length; i += 4) bytes += String.fromCharCode(data[i], data[i + 1], data[i + 2]);
    return btoa(bytes);
  }).then((b64) => Buffer.from(b64, 'base64'));
}

function apart(a, b) {
  const side = 200;
  let inDisc = 0;
  let differ = 0;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if ((x - side / 2) ** 2 + (y - side / 2) ** 2 > (side / 2) ** 2) continue;
      inDisc++;
      const i = (y * side + x) * 3;
      if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 48) differ++;
    }
  }
  return differ / inDisc;
}

test('every algorithm draws its own picture, and a followed key is walked on it to the owner its lookup names', async () => {
  const { page } = browser;
  const algos = cli(['compare', '--nodes', 'A,B', '--keys', '0..2', '--format', 'csv'])
    .trim().split('\n').slice(1).map((line) => line.split(',')[0]);
  assert.equal(algos.length, 27);
  const dir = path.join(shots, 'pictures');
  await mkdir(dir, { recursive: true });
  const seen = [];
  for (const algo of algos) {
    await page.goto(`${server.origin}/?lang=en&algo=${algo}&nodes=${NODES}&keys=${KEYS}&down=C&freeze=0`);
    await ready(page);
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
    const pixels = await ringPixels(page);
    // What the picture draws before a key is followed, said for a screen reader too.
    const said = { modn: /The slices: hash mod 7 picks the slice of that number, and slice i is live server i \(A, B, D, E, F, G, H\)/,
      rendezvous: /every live server scores each of the first keys, and the highest score wins \(key-0 → [A-H], /,
      carp: /the lowest score wins \(key-0 → [A-H], /, jump: /the jumps the first keys' lookups made/, guava: /the jumps the first keys' lookups made/,
      dx: /shaded by how often the first keys' lookups drew them/ }[algo];
    if (said) assert.match(await page.locator('canvas.ring').getAttribute('aria-label'), said, algo);
    await captureElement(page, '.ring-wrap', path.join(dir, `${algo}-unfollowed.png`));
    await page.getByPlaceholder(/Look up a key/).fill('key-7');
    await page.getByRole('button', { name: 'Look up', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('.lookup .explain'));
    const overlay = page.locator('canvas.ring-overlay');
    const kind = WALKS[algo] ?? '';
    await page.waitForFunction((k) => document.querySelector('canvas.ring-overlay').dataset.walk === k, kind);
    // The owner the lookup names (its sentence's last server name: "… → B", "… → server
    // B", "… of the 7 that are up: B"): the drawn walk ends there, and the picture's
    // accessible name says so.
    const words = await page.locator('.lookup .explain').first().textContent();
    const owner = words.match(/\b([A-H])\b(?![\s\S]*\b[A-H]\b)/)?.[1];
    assert.ok(owner, `${algo}: the lookup says ${words}`);
    if (kind) {
      assert.equal(await overlay.getAttribute('data-walk-end'), owner, algo);
      const label = await page.locator('canvas.ring').getAttribute('aria-label');
      // Within the key's sentence (a dot inside a word, Ceph's group 1.5, is not its end).
      assert.match(label, new RegExp(`key-7(?:[^.]|\\.(?! ))*\\b${owner}\\b`), `${algo}: ${label}`);
    }
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
    const file = path.join(dir, `${algo}.png`);
    await captureElement(page, '.ring-wrap', file);
    seen.push({ algo, pixels, counts: JSON.stringify(await tableCounts(page)), file });
  }
  // Pairwise: pictures of placements that differ differ by MIN_APART of the ring; only
  // placements with the very same counts may match, and those are jump and Guava.
  const close = [];
  const tooClose = [];
  const shares = [];
  for (let i = 0; i < seen.length; i++) {
    for (let j = i + 1; j < seen.length; j++) {
      const [a, b] = [seen[i], seen[j]];
      const share = apart(a.pixels, b.pixels);
      shares.push([share, `${a.algo}–${b.algo}`]);
      if (a.counts === b.counts) {
        close.push(`${a.algo}=${b.algo}`);
        continue;
      }
      if (share < MIN_APART) tooClose.push(`${a.algo}–${b.algo} ${(share * 100).toFixed(2)} %`);
    }
  }
  if (process.env.PAIRS) console.log(shares.sort((a, b) => a[0] - b[0]).slice(0, 40).map((x) => `${x[1]} ${(x[0] * 100).toFixed(2)}`).join('\n'));
  assert.deepEqual(close, ['jump=guava']);
  assert.deepEqual(tooClose, [], 'pictures less than MIN_APART of the ring apart');
  // The contact sheet, looked at.
  await contactSheet(browser.context, seen, path.join(shots, '30-pictures-sheet.png'));
});

test("the pictures and walks are said in words for a screen reader, in English and Chinese", async () => {
  const { page } = browser;
  // The walk is said as the lookup card says it: the buckets visited (✗ removed), the one
  // that works, its server.
  for (const [lang, stack, walk] of [['en', /the anchor's 100 buckets; the numbered ones are its removal stack, 1 comes back first \(buckets 2, 8, 9, 10, 11\)/, /anchor visits buckets (\d+✗ → )+\d+ \(✗ = removed\); bucket \d+ works → [A-H]$/],
    ['zh-CN', /锚点的 100 个桶；标了数字的是移除栈，1 最先恢复（桶 2, 8, 9, 10, 11）/, /依次经过桶 (\d+✗ → )+\d+（✗ = 已删除）；第 \d+ 个桶在线 → [A-H]$/]]) {
    await page.goto(`${server.origin}/?lang=${lang}&algo=anchor&nodes=${NODES}&keys=${KEYS}&down=C&freeze=0`);
    await ready(page);
    const ring = page.locator('canvas.ring');
    assert.match(await ring.getAttribute('aria-label'), stack);
    await page.locator('.lookup input').first().fill('key-7');
    await page.locator('.lookup input').first().press('Enter');
    await page.waitForFunction(() => /key-7/.test(document.querySelector('canvas.ring').getAttribute('aria-label')));
    const label = await ring.getAttribute('aria-label');
    assert.match(label, walk);
    assert.ok(label.endsWith(await page.locator('.lookup .explain').first().innerText()), label);
  }
});

test('the decides tour walks one key through seven pictures, each step telling how to read its picture and the walk drawn on it, in English and Chinese', async () => {
  const { page } = browser;
  // Step by step: the walk drawn (bounded loads draws its capacity bars instead), and the
  // server the narration ends on.
  const kinds = ['modulo', 'hops', 'hops', 'probes', 'scores', 'cell', ''];
  for (const [lang, reading] of [['en', /On the picture, /], ['zh-CN', /图上/]]) {
    await page.goto(`${server.origin}/?tour=decides&lang=${lang}`);
    await ready(page);
    const owners = new Set();
    for (let k = 1; k <= kinds.length; k++) {
      if (k > 1) await page.keyboard.press('ArrowRight');
      await page.waitForFunction(tourSettled, ['decides', k], { timeout: 60000 });
      await page.waitForFunction((kind) => document.querySelector('canvas.ring-overlay').dataset.walk === kind, kinds[k - 1]);
      const narration = await page.locator('section.tour .narration').innerText();
      // The narration tells the walk as the lookup card tells it, ending at its owner.
      const card = await page.locator('.lookup .explain').first().innerText();
      assert.ok(narration.endsWith(card), `${lang} step ${k}: ${narration}\n— the card: ${card}`);
      const owner = narration.match(/([A-E])$/)?.[1];
      assert.ok(owner, `${lang} step ${k}: ${narration}`);
      owners.add(owner);
      if (kinds[k - 1]) {
        assert.match(narration, reading, `${lang} step ${k}`);
        assert.equal(await page.locator('canvas.ring-overlay').getAttribute('data-walk-end'), owner, `${lang} step ${k}`);
      } else {
        // Bounded loads: the capacity line, and the key walking past a full server.
        assert.match(narration, lang === 'en' ? /the line is the capacity, 500 keys — [1-9][\d,]* keys found their server full and walked on.*passed E, already full/ : /容量 500 个键 —— [1-9][\d,]* 个键遇到已满的服务器.*越过了已满的 E/, narration);
      }
      if (lang === 'en') await screenshot(page, `30-tour-decides-${k}-en`);
    }
    assert.ok(owners.size >= 4, `${lang}: the seven rules give ${[...owners]}`);
  }
});

test('before a key is followed, the lookup card says how the picture will draw its walk', async () => {
  const { page } = browser;
  for (const [algo, hint] of [['jump', /hops from bucket to bucket/], ['rendezvous', /score for a followed key is a bar/], ['maglev', /own permutation/]]) {
    await page.goto(`${server.origin}/?lang=en&algo=${algo}&nodes=A,B,C`);
    await ready(page);
    assert.match(await page.locator('.lookup .hint').innerText(), hint, algo);
  }
  await page.locator('.lookup input').first().fill('key-7');
  await page.locator('.lookup input').first().press('Enter');
  await page.waitForSelector('.lookup .explain');
  assert.equal(await page.locator('.lookup .hint').count(), 0, 'the walk itself replaces the hint');
  // The ring's picture is its own walk: keys go clockwise as drawn; nothing to add.
  await page.goto(`${server.origin}/?lang=en&nodes=A,B,C`);
  await ready(page);
  assert.equal(await page.locator('.lookup .hint').count(), 0);
});

test("mod-N writes the followed key's sum before and after a change of N: the same hash, another remainder", async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&algo=modn&nodes=A,B,C,D,E&keys=${encodeURIComponent('user:{i}:0..2000')}&freeze=0`);
  await ready(page);
  await page.locator('.lookup input').first().fill('user:1635');
  await page.locator('.lookup input').first().press('Enter');
  const sum = () => page.locator('canvas.ring-overlay').getAttribute('data-walk-sum');
  await page.waitForFunction(() => document.querySelector('canvas.ring-overlay').dataset.walkSum);
  assert.equal(await sum(), '89,715,579 mod 5 = 4');
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.waitForFunction(() => / → /.test(document.querySelector('canvas.ring-overlay').dataset.walkSum));
  // 89,715,579 = 6 × 14,952,596 + 3: server number 3 of the six, D.
  assert.equal(await sum(), '89,715,579 mod 5 = 4 → mod 6 = 3');
  assert.equal(await page.locator('canvas.ring-overlay').getAttribute('data-walk-end'), 'D');
  await screenshot(page, '30-walk-modn-after-add');
});
