// Shared e2e harness: serves dist/ on 127.0.0.1, launches Debian's Chromium through
// playwright-core, and records console errors and every request that leaves 127.0.0.1.
import { createServer } from 'node:http';
import { readFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dist = path.join(root, 'dist');
export const shots = path.join(root, 'target', 'e2e');

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
};

/** Serves `dir` (dist/) at `/` and also under `/docs/embed/` (a sub-path, as an embedding
 * site would). */
export async function serveDist(dir = dist) {
  const server = createServer(async (req, res) => {
    let url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    url = url.replace(/^\/docs\/embed\//, '/');
    if (url.endsWith('/')) url += 'index.html';
    const file = path.join(dir, path.normalize(url));
    if (!file.startsWith(dir)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(ok)) };
}

const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** A fresh browser profile with a page that records problems in `problems`. */
export async function openBrowser({ width = 1400, height = 1000, scale = 1, touch = false } = {}) {
  const profile = await mkdtemp(path.join(tmpdir(), 'hashring-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: FLAGS,
    viewport: { width, height },
    deviceScaleFactor: scale,
    hasTouch: touch,
  });
  // Closing the browser also removes its temporary profile.
  const close = context.close.bind(context);
  context.close = async () => {
    await close();
    await rm(profile, { recursive: true, force: true });
  };
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
  await page.screenshot({ path: file });
  if (height > viewport.height) await page.setViewportSize(viewport);
  return file;
}

/** Waits until the app has mounted, drawn the ring, and placed every key (a large
 * scenario loads in steps behind a progress bar). */
export async function ready(page, timeout = 60000) {
  await page.waitForSelector('canvas.ring[data-version]');
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length > 0
    && !document.querySelector('.summary progress'), null, { timeout });
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
