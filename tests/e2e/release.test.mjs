// The release archive a documentation author hosts (issue 50): `make dist` packs dist/ with
// a hosting README as target/release-page/hashring-lab-page-VERSION.tar.gz. Unpacked into a
// sub-path of a fresh static server that answers nothing outside it, the page and the sample
// documentation page load there in Chromium with no console error (its CSP included) and no
// request outside the sub-path. And `make serve` serves the page as the README says.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDist, openBrowser, ready, tableCounts, screenshot } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SUB = '/docs/tools/hashring/';
let unpacked;
after(() => unpacked && rm(unpacked, { recursive: true, force: true }));

test('the release archive, unpacked under a sub-path of a static server, is the whole page and its embed example', async () => {
  const version = (await readFile(path.join(root, 'Cargo.toml'), 'utf8')).match(/^version = "(.+)"$/m)[1];
  const name = `hashring-lab-page-${version}`;
  const archive = path.join(root, 'target', 'release-page', `${name}.tar.gz`);
  unpacked = await mkdtemp(path.join(tmpdir(), 'hashring-release-'));
  execFileSync('tar', ['-xzf', archive, '-C', unpacked]);
  const dir = path.join(unpacked, name);
  // What it holds: the page, its wasm, the sample page and the hosting README — no lock
  // files or other leftovers of the build.
  const files = (await readdir(dir)).sort();
  assert.deepEqual(files.map((f) => f.replace(/-[0-9a-f]{16}_bg\.wasm$/, '-HASH_bg.wasm')),
    ['README.md', 'embed-example.css', 'embed-example.html', 'embed-example.js', 'favicon.svg', 'hashring-lab-HASH_bg.wasm', 'index.html']);
  assert.match(await readFile(path.join(dir, 'README.md'), 'utf8'), /^# Hosting hashring-lab on your own site/);
  const server = await serveDist(dir, { only: SUB });
  const { context, page, problems } = await openBrowser({ width: 1280, height: 720 });
  try {
    await page.goto(`${server.origin}${SUB}?lang=en&algo=ring&nodes=A,B,C&keys=0..3000`);
    await ready(page);
    assert.equal((await tableCounts(page)).reduce((a, r) => a + r.keys, 0), 3000);
    await page.goto(`${server.origin}${SUB}embed-example.html`);
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 2);
    for (const el of await page.$$('iframe')) await el.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => [...document.querySelectorAll('iframe')]
      .every((f) => f.contentDocument?.querySelector('canvas.ring[data-version]')
        && !f.contentDocument.querySelector('.summary progress')), null, { timeout: 60000 });
    const frames = page.frames().filter((f) => f !== page.mainFrame());
    assert.equal((await tableCounts(frames[0])).length, 4);
    await screenshot(page, '62-release-embed-example');
    assert.deepEqual(problems.console, [], 'no console error (the sample page\'s CSP included)');
    assert.deepEqual(problems.outside, [], 'no request leaves the server');
    assert.deepEqual(server.outside, [], `no request outside ${SUB}`);
  } finally {
    await context.close();
    await server.close();
  }
});

// `make serve`, as the README prints it (with a free port): it serves the built page, which
// opens with no console error and no request beyond the server, the wasm sent as
// application/wasm (so the browser compiles it while it downloads), and a path outside the
// page answered 404, not a file of the machine.
test('make serve serves the page on the port it is given', async () => {
  const port = await new Promise((ok) => {
    const probe = createServer().listen(0, '127.0.0.1', () => { const { port: p } = probe.address(); probe.close(() => ok(p)); });
  });
  const make = spawn('make', ['--no-print-directory', 'serve', `PORT=${port}`], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  make.stdout.on('data', (d) => { said += d; });
  make.stderr.on('data', (d) => { said += d; });
  const { context, page, problems } = await openBrowser({ width: 1280, height: 720 });
  try {
    const origin = `http://127.0.0.1:${port}`;
    for (let waited = 0; !said.includes(`serving dist/ on ${origin}/`); waited += 100) {
      assert.ok(make.exitCode === null && waited < 120000, `make serve did not start: ${said.slice(-600)}`);
      await new Promise((ok) => setTimeout(ok, 100));
    }
    await page.goto(`${origin}/?lang=en&algo=ring&nodes=A,B,C&keys=0..3000`);
    await ready(page);
    assert.equal((await tableCounts(page)).reduce((a, r) => a + r.keys, 0), 3000);
    const wasm = await page.evaluate(async () => {
      const name = [...document.scripts].map((s) => s.textContent.match(/\.\/([\w-]+_bg\.wasm)/)).find(Boolean)[1];
      const r = await fetch(name);
      return { status: r.status, type: r.headers.get('content-type') };
    });
    assert.deepEqual(wasm, { status: 200, type: 'application/wasm' });
    assert.deepEqual(problems.console, []);
    assert.deepEqual(problems.outside, []);
    // (The browser logs this answer as an error: it is asked for last.)
    const outside = await page.evaluate(async () => (await fetch('/..%2f..%2fCargo.toml')).status);
    assert.ok(outside === 404 || outside === 400, `a path outside dist/ answered ${outside}`);
  } finally {
    await context.close();
    process.kill(-make.pid, 'SIGTERM');
  }
});
