// The second hostile round (issue 17), as a user meets it: a clicker's keys in a tour do not
// scroll the page, a tour link still names the link's other problems, the page's own link
// with no servers opens again, and bad scenario files get a short message and change nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, openBrowser, ready, tableCounts, screenshot } from './harness.mjs';

let server, browser;
const consoleLines = [];
before(async () => {
  server = await serveDist();
  browser = await openBrowser({ width: 1280, height: 720 });
  browser.page.on('console', (m) => consoleLines.push(m.text()));
});
after(async () => { await browser?.context.close(); await server?.close(); });

const tourStep = (page) => page.$eval('section.tour', (s) => Number(s.dataset.step));

test("a clicker's PageDown and Space turn tour pages without scrolling, and the listener may prevent them", async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&tour=ring&step=1`);
  await ready(page);
  await page.waitForSelector('section.tour[data-step="1"] .narration:not(:empty)');
  // The page is taller than 720 px, so a default PageDown would scroll it.
  assert.ok(await page.evaluate(() => document.documentElement.scrollHeight > innerHeight + 100));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => document.querySelector('section.tour')?.dataset.step === '2');
  await page.keyboard.press('Space');
  await page.keyboard.press('PageUp');
  await page.waitForFunction(() => document.querySelector('section.tour')?.dataset.step === '1');
  assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page did not scroll');
  assert.equal(await tourStep(page), 1);
  assert.deepEqual(consoleLines.filter((l) => /preventDefault/.test(l)), []);
});

test('a tour link still names its other problems', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&tour=java&step=2&vnodes=0&algo=nope`);
  await ready(page);
  await page.waitForSelector('section.tour[data-step="2"] .narration:not(:empty)');
  await page.waitForFunction(() => !document.querySelector('.summary progress'));
  const error = await page.textContent('.error');
  assert.match(error, /vnodes '0' must be a whole number from 1 to 1000/);
  assert.match(error, /unknown algorithm 'nope'/);
  await screenshot(page, '70-tour-link-with-problems');
});

test("the page's own link after every server is removed opens again", async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&nodes=A&keys=0..100`);
  await ready(page);
  await page.getByRole('button', { name: 'Remove server' }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 0);
  const link = await page.evaluate(() => location.href);
  assert.match(link, /nodes=(&|$)/);
  await page.goto(link);
  await page.waitForFunction(() => document.querySelector('.summary') && !document.querySelector('.summary progress'));
  assert.equal(await page.$('.error'), null, 'no message: the link is the page\'s own');
  assert.deepEqual(await tableCounts(page), []);
});

test('bad scenario files: a short message quickly, the first problems named, nothing changed', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&nodes=A,B,C&keys=0..300`);
  await ready(page);
  const counts = await tableCounts(page);
  const open = (name, text) => page.setInputFiles('#open-scenario', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
  // 100,000 unknown fields (1.5 MB).
  const fields = ['"format": "hashring-lab scenario"', '"version": 1'];
  for (let i = 0; i < 100000; i++) fields.push(`"field${i}": 1`);
  const started = Date.now();
  await open('many.json', `{${fields.join(',')}}`);
  await page.waitForFunction(() => /more problems/.test(document.querySelector('.error')?.textContent || ''), null, { timeout: 20000 });
  const took = Date.now() - started;
  const message = await page.textContent('.error');
  assert.ok(message.length < 1500, `${message.length} characters`);
  assert.match(message, /unknown field 'field0'.*and 99,?995 more problems/);
  console.log(`100,000 unknown fields: message after ${took} ms, ${message.length} characters`);
  // A repeated field is refused, as a repeated URL parameter is.
  await page.click('.error button');
  await open('twice.json', '{"format": "hashring-lab scenario", "version": 1, "nodes": "A", "nodes": "B"}');
  await page.waitForFunction(() => /'nodes' is given more than once/.test(document.querySelector('.error')?.textContent || ''));
  // A file larger than any scenario is refused before it is read.
  await page.click('.error button');
  await page.setInputFiles('#open-scenario', { name: 'huge.json', mimeType: 'application/json', buffer: Buffer.alloc(17 * 1024 * 1024, 32) });
  await page.waitForFunction(() => /a scenario file is at most 16 MB/.test(document.querySelector('.error')?.textContent || ''));
  assert.deepEqual(await tableCounts(page), counts);
});

test('a megabyte server-name template in a link or a file is refused, and the page lives on', async () => {
  const { page } = browser;
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const template = `${'y'.repeat(1000000)}{i}:0..10000`;
  await page.goto(`${server.origin}/?lang=en&nodes=${template}&keys=0..200`);
  await page.waitForFunction(() => /longer than 64 characters|at most 64 characters/.test(document.querySelector('.error')?.textContent || ''), null, { timeout: 20000 });
  await ready(page);
  // The default scenario is shown, and it still answers.
  assert.deepEqual((await tableCounts(page)).map((r) => r.name), ['A', 'B', 'C', 'D']);
  await page.click('.error button');
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 5);
  // The same template twice in a scenario file.
  const file = JSON.stringify({ format: 'hashring-lab scenario', version: 1, nodes: `${template},x${template}` });
  await page.setInputFiles('#open-scenario', { name: 'names.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await page.waitForFunction(() => /64 characters/.test(document.querySelector('.error')?.textContent || ''), null, { timeout: 20000 });
  assert.equal((await tableCounts(page)).length, 5, 'nothing changed');
  assert.deepEqual(errors.filter((e) => /RuntimeError|unreachable|panicked/.test(e)), []);
});

test('a scenario whose link is longer than a browser opens is offered as a file, and the address keeps the last link', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&nodes=A,B,C&keys=0..300`);
  await ready(page);
  const before = await page.evaluate(() => location.search);
  // 300,000 listed keys: a link of 2.2 MB.
  const keys = Array.from({ length: 300000 }, (_, i) => `k${i}`).join(',');
  const file = JSON.stringify({ format: 'hashring-lab scenario', version: 1, nodes: 'A,B,C', keys: `list:${keys}` });
  await page.setInputFiles('#open-scenario', { name: 'many-keys.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await page.waitForFunction(() => (document.querySelector('.summary')?.textContent || '').includes('300,000'), null, { timeout: 60000 });
  await ready(page, 60000);
  const total = (await tableCounts(page)).reduce((a, r) => a + r.keys, 0);
  assert.equal(total, 300000);
  await page.evaluate(() => document.querySelector('details.share').setAttribute('open', ''));
  const said = await page.textContent('.link-too-long');
  assert.match(said, /^This scenario's link would be longer than a browser opens \(2 MB\): share it as a scenario file/);
  assert.equal(await page.$('#share-link'), null, 'no link field');
  assert.equal(await page.evaluate(() => location.search), before, 'the address keeps the last link that fits');
  // The QR code says the same, not a code of an empty link.
  await page.keyboard.press('q');
  await page.waitForSelector('.dialog[role=dialog]');
  assert.match(await page.textContent('.dialog[role=dialog]'), /too long for a QR code/);
});

test("the speaker notes window shows the link's problems too", async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&notes=1&tour=java&step=2&vnodes=0&algo=nope`);
  await page.waitForSelector('.notes-view .narration:not(:empty)');
  const said = await page.textContent('.notes-view .error');
  assert.match(said, /vnodes '0' must be a whole number from 1 to 1000/);
  assert.match(said, /unknown algorithm 'nope'/);
});

/** Pastes `text` into the box `selector` as a user's paste does (a paste event with the text). */
async function paste(page, selector, text) {
  await page.$eval(selector, (el, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** `nodetool ring` output: `nodes` nodes × `perNode` tokens, spread over the ring. */
function nodetoolRing(nodes, perNode) {
  const rows = ['Datacenter: dc1', '==========', 'Address    Rack   Status State   Load     Owns   Token'];
  const count = nodes * perNode;
  const step = 18000000000000000000n / BigInt(count);
  let t = -9000000000000000000n;
  for (let i = 0; i < count; i++, t += step) {
    const n = i % nodes;
    rows.push(`10.0.${n >> 8}.${n & 255}  rack1  Up  Normal  1 KiB  1%  ${t}`);
  }
  return `${rows.join('\n')}\n`;
}

test('a long paste is held out of its box, read in steps with progress, and answered in full', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&nodes=A,B,C&keys=0..300`);
  await ready(page);
  await page.click('details.export summary');
  // 10,000 nodes × 30 tokens: 14 MB, more servers than the page takes.
  const big = nodetoolRing(10000, 30);
  await paste(page, '#config-text', big);
  const held = await page.textContent('.held-paste');
  assert.match(held, /^Pasted 1\d\.\d MB \(300,003 lines\): kept aside, not shown in the box/);
  assert.equal(await page.$eval('#config-text', (el) => el.value), '', 'the box holds none of it');
  await screenshot(page, '90-held-paste');
  const before = await page.evaluate(() => location.search);
  await page.click('button.use-config');
  // Read in steps: the progress line shows (and the button waits) while it is read.
  await page.waitForSelector('.export-progress progress');
  assert.match(await page.textContent('.export-progress'), /^Reading: \d+%/);
  assert.ok(await page.$eval('button.use-config', (b) => b.disabled));
  await page.waitForFunction(() => document.querySelector('.error'), null, { timeout: 60000 });
  assert.match(await page.textContent('.error'), /10000 servers is more than the page's limit of 100/);
  assert.equal(await page.evaluate(() => location.search), before, 'nothing changed');
  assert.equal(await page.$('.export-progress'), null);
  // Typing in the box lets the held paste go.
  await page.fill('#config-text', 'upstream u {');
  assert.equal(await page.$('.held-paste'), null);
  // A legal long paste — 20 nodes × 1,500 tokens, 1.4 MB — becomes the cluster.
  await paste(page, '#config-text', nodetoolRing(20, 1500));
  await page.waitForSelector('.held-paste');
  await page.click('button.use-config');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('algo') === 'cassandra', null, { timeout: 60000 });
  await ready(page, 60000);
  const tokens = new URL(page.url()).searchParams.get('tokens').split(',');
  assert.equal(tokens.length, 20);
  assert.ok(tokens.every((t) => t.split('+').length === 1500));
  assert.equal((await tableCounts(page)).length, 20);
  // 20,000 pasted keys (a limit of 10,000): held, read, and refused with their count.
  await paste(page, '#keys-text', Array.from({ length: 20000 }, (_, i) => `user:${i}`).join('\n'));
  await page.waitForSelector('#keys-text + .held-paste');
  await page.click('button.use-keys');
  await page.waitForFunction(() => /20000 keys is more than the limit of 10000/.test(document.querySelector('.error')?.textContent || ''), null, { timeout: 60000 });
  assert.deepEqual(consoleLines.filter((l) => /RuntimeError|unreachable|panicked/.test(l)), []);
});
