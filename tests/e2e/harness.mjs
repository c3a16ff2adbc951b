// Shared e2e harness: serves dist/ on 127.0.0.1, launches Debian's Chromium through
// playwright-core, and records console errors and every request that leaves 127.0.0.1.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { readFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { after } from 'node:test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { fileFor, sendFile, types } from '../../tools/serve.mjs';

export { types };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dist = process.env.HASHRING_DIST || path.join(root, 'dist');
export const shots = path.join(root, 'target', 'e2e');

/** Runs the command line (the debug build `cargo test` left, else through cargo); its stdout. */
export function cli(args) {
  const bin = path.join(root, 'target', 'debug', 'hashring-lab');
  return (existsSync(bin)
    ? execFileSync(bin, args, { maxBuffer: 1 << 30 })
    : execFileSync('cargo', ['run', '-q', '--bin', 'hashring-lab', '--', ...args], { cwd: root, maxBuffer: 1 << 30 })).toString();
}

/** Serves `dir` (dist/) at `/` and also under `/docs/embed/` (a sub-path, as an embedding
 * site would) — or, with `only`, under that sub-path alone: anything asked for outside it
 * is answered 404 and listed in `outside`. */
export async function serveDist(dir = dist, { only } = {}) {
  const outside = [];
  // Links as long as a browser sends (2 MB): Node's default 16 KB of headers would refuse the
  // hostile links before the page could.
  const server = createServer({ maxHeaderSize: 4 << 20 }, async (req, res) => {
    let url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (only && !url.startsWith(only)) {
      outside.push(url);
      res.writeHead(404).end('not found');
      return;
    }
    url = only ? `/${url.slice(only.length)}` : url.replace(/^\/docs\/embed\//, '/');
    const file = fileFor(dir, url);
    if (!file) { res.writeHead(403).end(); return; }
    await sendFile(res, file);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, outside, close: () => new Promise((ok) => server.close(ok)) };
}

// CHROMIUM_FLAGS adds flags for a measurement (e.g. --js-flags=--no-wasm-lazy-compilation).
const FLAGS = [...(process.env.CHROMIUM_FLAGS?.split(" ") ?? []), '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** One Chromium per test file, launched on first use and closed after the file's last test;
 * each `openBrowser` is a fresh context in it (its own storage, cookies and cache, as a new
 * profile would be) — a context opens in ~0.25 s where a browser takes ~0.65 s. */
let shared;
const chromiumOnce = () => (shared ??= chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: FLAGS,
}));

/** Closes the shared Chromium (the perf scripts call it at their end; a test file does after
 * its last test, registered below at the file's root). */
export async function closeBrowsers() {
  const b = shared;
  shared = undefined;
  if (b) await (await b).close();
}
if (process.env.NODE_TEST_CONTEXT || /\.test\.mjs$/.test(process.argv[1] || '')) after(closeBrowsers);

/** A fresh browser context with a page that records problems in `problems`; `fresh` gives
 * it a Chromium of its own with a new profile instead (the perf scripts: every measurement
 * starts from a cold browser). */
export async function openBrowser({ width = 1400, height = 1000, scale = 1, touch = false, fresh = false } = {}) {
  const options = { viewport: { width, height }, deviceScaleFactor: scale, hasTouch: touch };
  const context = fresh ? await ownChromium(options) : await (await chromiumOnce()).newContext(options);
  const page = context.pages()[0] || (await context.newPage());
  const problems = { console: [], outside: [] };
  page.on('console', (m) => { if (m.type() === 'error') problems.console.push(m.text()); });
  page.on('pageerror', (e) => problems.console.push(String(e)));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.hostname !== '127.0.0.1') problems.outside.push(r.url());
  });
  return { context, page, problems };
}

/** Writes what the viewport shows to `file` as PNG, through the DevTools protocol with
 * `optimizeForSpeed` (a faster zlib level: the same pixels, ~40 % less time than
 * `page.screenshot`, which also waits for fonts and hides the caret; ~200 pictures a run). */
export async function capture(page, file, clip = undefined) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { data } = await cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, ...(clip && { clip }) });
    await writeFile(file, Buffer.from(data, 'base64'));
  } finally {
    await cdp.detach();
  }
}

/** Writes what the first element matching `selector` shows to `file`, as `capture` does
 * (the element is in view: the pictures these tests keep are of the ring at the top). */
export async function captureElement(page, selector, file) {
  const clip = await page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height, scale: 1 };
  });
  await capture(page, file, clip);
}

/** A Chromium of its own on a new temporary profile, removed when the context closes. */
async function ownChromium(options) {
  const profile = await mkdtemp(path.join(tmpdir(), 'hashring-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: FLAGS, ...options,
  });
  const close = context.close.bind(context);
  context.close = async () => {
    await close();
    await rm(profile, { recursive: true, force: true });
  };
  return context;
}

/**
 * Saves a screenshot of the whole page. Playwright's fullPage capture can miss a canvas
 * that is redrawn every frame, so the viewport is grown to the page instead, and the
 * capture waits for two frames drawn at that size.
 */
export async function screenshot(page, name) {
  await mkdir(shots, { recursive: true });
  const file = path.join(shots, `${name}.png`);
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height > viewport.height) await page.setViewportSize({ width: viewport.width, height });
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  await capture(page, file);
  if (height > viewport.height) await page.setViewportSize(viewport);
  return file;
}

/** Waits until the app has mounted, placed every key (a large scenario loads in steps
 * behind a progress bar) and drawn the ring of exactly what the tables show: the canvas
 * records the counts of the state its static layer was drawn from (`data-drawn-*`), which
 * must equal the table's servers and keys once the link's scenario is loaded. */
export async function ready(page, timeout = 60000) {
  await page.waitForSelector('canvas.ring[data-version]');
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('table.counts tbody tr')];
    const ring = document.querySelector('canvas.ring');
    if (!rows.length || document.querySelector('.summary progress') || ring.dataset.drawnLoaded !== '1') return false;
    const keys = rows.reduce((a, r) => a + Number(r.querySelector('td.count').textContent.replace(/,/g, '')), 0);
    return Number(ring.dataset.drawnKeys) === keys && Number(ring.dataset.drawnServers) === rows.length;
  }, null, { timeout });
  // What was drawn is what a reader sees: every server holding a visible share of the keys
  // (2% or more) shows its colour on the ring.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  const seen = await ringColours(page);
  const total = seen.reduce((a, s) => a + s.keys, 0);
  const missing = seen.filter((s) => s.keys >= total * 0.02 && s.keys > 0 && s.pixels < 8);
  if (missing.length) {
    throw new Error(`the ring does not show ${missing.map((s) => `${s.name} (${s.keys} keys, ${s.pixels} px)`).join(', ')}`);
  }
}

/** What the ring canvas shows of each server: for every row of the counts table, its
 * name, its keys, and how many pixels of the ring canvas are painted in its swatch colour
 * (within a small tolerance for antialiasing). The placeholder's grey track, the text and
 * the background match no server colour, so an empty ring reads 0 for every server. */
export async function ringColours(page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll('table.counts tbody tr')].map((r) => ({
      name: r.querySelector('th').childNodes[0].textContent.trim(),
      keys: Number(r.querySelector('td.count').textContent.replace(/,/g, '')),
      fill: r.querySelector('svg.swatch rect').getAttribute('fill'),
    }));
    const c = document.querySelector('canvas.ring');
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    // Any CSS colour (hex or hsl) to RGB, through a one-pixel canvas.
    const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const rgb = (fill) => { probe.fillStyle = fill; probe.fillRect(0, 0, 1, 1); return [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)]; };
    const colours = rows.map((r) => rgb(r.fill));
    const pixels = rows.map(() => 0);
    for (let i = 0; i < data.length; i += 16) { // every fourth pixel is plenty
      for (let k = 0; k < colours.length; k++) {
        const [r, g, b] = colours[k];
        if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) <= 12) { pixels[k]++; break; }
      }
    }
    return rows.map((r, k) => ({ name: r.name, keys: r.keys, pixels: pixels[k] * 4 }));
  });
}

/** Asserts that the ring canvas shows every server that owns keys in its own colour, with
 * at least `min` pixels each — what a reader sees as "the ring is drawn". */
export async function assertRingShowsServers(assert, page, min = 40, what = '') {
  const seen = await ringColours(page);
  for (const s of seen) {
    if (s.keys > 0) assert.ok(s.pixels >= min, `${what} ring shows ${s.name} (${s.keys} keys) in ${s.pixels} px of its colour`);
  }
}

/** The "Keys per server" table as [{name, keys}]. */
export async function tableCounts(page) {
  return page.$$eval('table.counts tbody tr', (rows) => rows.map((r) => ({
    name: r.querySelector('th').childNodes[0].textContent.trim(),
    keys: Number(r.querySelector('td.count').textContent.replace(/,/g, '')),
  })));
}

/** Pixels of a canvas that differ from its corner (background) colour. */
export async function paintedPixels(page, selector) {
  return page.$eval(selector, (c) => {
    const ctx = c.getContext('2d');
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    const [r0, g0, b0] = [data[0], data[1], data[2]];
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - r0) + Math.abs(data[i + 1] - g0) + Math.abs(data[i + 2] - b0) > 30) n++;
    }
    return n;
  });
}

/** The bounding boxes of `selectors` (the first match of each) and whether each lies wholly
 * inside the viewport as it is now, without scrolling; also whether the page overflows
 * sideways. Returns { boxes: {selector: box}, outside: [selector…], sideways }. */
export async function fits(page, selectors) {
  return page.evaluate((selectors) => {
    const vw = document.documentElement.clientWidth, vh = window.innerHeight;
    const boxes = {}, outside = [];
    for (const s of selectors) {
      const el = document.querySelector(s);
      if (!el) { outside.push(`${s} (missing)`); continue; }
      const b = el.getBoundingClientRect();
      boxes[s] = { top: Math.round(b.top), left: Math.round(b.left), bottom: Math.round(b.bottom), right: Math.round(b.right) };
      if (b.width === 0 || b.height === 0 || b.top < -0.5 || b.left < -0.5 || b.bottom > vh + 0.5 || b.right > vw + 0.5) {
        outside.push(`${s} ${JSON.stringify(boxes[s])} in ${vw}×${vh}`);
      }
    }
    return { boxes, outside, sideways: document.documentElement.scrollWidth > vw + 1, scrollY: window.scrollY };
  }, selectors);
}

/** Every guided tour, in the order Next walks them, with its number of steps. */
/** In the page: whether the tour shows step `step` of tour `tour` (any tour when null) with
 * its narration, its work done (no progress bar) — a step a reader can read. */
export const tourSettled = ([tour, step]) => {
  const t = document.querySelector('section.tour');
  return !!t && (tour === null || t.dataset.tour === tour) && t.dataset.step === String(step)
    && !document.querySelector('.summary progress') && t.querySelector('.narration').textContent.trim().length > 0;
};

export const TOURS = { modn: 3, ring: 3, vnodes: 5, sweep: 2, java: 4, carp: 2, slots: 6, stale: 4, survivors: 4, decides: 7 };

/** Every number written in `text` (with thousands separators), as strings. */
const numbers = (text) => (text.match(/\d[\d,]*(\.\d+)?%?/g) || []).map((n) => n.replace(/[,.]$/, ''));

/** Fails (through `assert`) when a number a tour narration states is not on screen outside
 * it: in the tables, the figures, the summary line, the lookup, the stored values or the
 * ring's centre line. */
export async function numbersOnScreen(assert, page, narration, where) {
  const shown = await page.evaluate(() => {
    const clone = document.querySelector('main').cloneNode(true);
    clone.querySelector('section.tour')?.remove();
    return clone.innerText;
  });
  const canvasLine = await page.getAttribute('canvas.ring', 'aria-label');
  for (const n of numbers(narration)) {
    const plain = n.replace(/%$/, '');
    if (/^\d$/.test(plain) || /^00\d$/.test(plain)) continue; // small counts, seed post numbers
    assert.ok(shown.includes(n) || canvasLine.includes(n) || /^(100|200|1,000|16,384|16384)$/.test(n),
      `${where} states ${n}, not on screen:\n${narration}`);
  }
}

/** A contact sheet to look at: `items` ({ file, algo }: a PNG and its caption) six to a row,
 * captured into `out` from a fresh page of `context`. */
export async function contactSheet(context, items, out) {
  const sheet = await context.newPage();
  await sheet.setViewportSize({ width: 1800, height: 1500 });
  const images = await Promise.all(items.map(async (s) => `<figure><img src="data:image/png;base64,${(await readFile(s.file)).toString('base64')}"><figcaption>${s.algo}</figcaption></figure>`));
  await sheet.setContent(`<style>body{margin:0;display:grid;grid-template-columns:repeat(6,1fr);font:14px sans-serif}figure{margin:2px}img{width:100%}</style>${images.join('')}`);
  await capture(sheet, out);
  await sheet.close();
}
