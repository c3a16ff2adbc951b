// The release archive a documentation author hosts (issue 50): `make dist` packs dist/ with
// a hosting README as target/release-page/hashring-lab-page-VERSION.tar.gz. Unpacked into a
// sub-path of a fresh static server that answers nothing outside it, the page and the sample
// documentation page load there in Chromium with no console error (its CSP included) and no
// request outside the sub-path.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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
