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
  assert.match(said, /^This scenario's link would be 2\.\d MB, more than a browser opens \(2 MB\): share it as a scenario file/);
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
