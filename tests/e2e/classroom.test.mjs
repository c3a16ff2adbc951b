// The page for a classroom and a documentation page: the language switch, embed mode and
// the sample documentation page under its strict CSP, share and export, presentation
// mode, the light theme, keyboard-only use, and axe-core's accessibility checks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { serveDist, openBrowser, ready, tableCounts, screenshot, shots, cli, tourSettled, capture, TOURS } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const jsqrSource = await readFile(require.resolve('jsqr/dist/jsQR.js'), 'utf8');

let server, browser;
before(async () => { server = await serveDist(); browser = await openBrowser({ width: 1400, height: 1000 }); });
after(async () => { await browser?.context.close(); await server?.close(); });

/** Words of three or more Latin letters in the visible text, except names the page
 * shows in every language (server and hash names, formulas, file types). */
const ALLOWED = new Set(['hashring', 'lab', 'english', 'xxh3', 'murmur64a', 'seed', 'fnv', 'hutool',
  'java', 'string', 'md5', 'crc16', 'identity', 'mod', 'carp', 'hrw', 'redis', 'cluster', 'png', 'csv',
  'json', 'key', 'user', 'page', 'esc', 'space', 'maglev', 'jumpback', 'binomial', 'memento', 'anchor', 'bounded', 'flip', 'power', 'dx', 'crush', 'straw2']);
const latinWords = (text) => (text.match(/[A-Za-z][A-Za-z0-9_]{2,}/g) || [])
  .filter((w) => !ALLOWED.has(w.toLowerCase()));
/** Algorithm ids (the menu's values) are names in every language: a registered algorithm
 * needs no entry here. */
async function allowAlgorithmIds(page) {
  for (const id of await page.$$eval('#algo option', (os) => os.map((o) => o.value))) {
    for (const word of [id, ...id.split('-')]) ALLOWED.add(word);
  }
}
const visibleText = (frame) => frame.evaluate(() => document.body.innerText);

/** Serious or critical axe violations on the page. */
async function axeViolations(page) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`);
}

test('the language switch changes every visible word; zh-CN leaves no English sentence', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en`);
  await ready(page);
  await allowAlgorithmIds(page);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  const english = await visibleText(page);
  assert.doesNotMatch(english.replace('简体中文', ''), /[\u4e00-\u9fff]/);
  await page.selectOption('#lang', 'zh-CN');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(await page.evaluate(() => location.search), /lang=zh-CN/);
  const chinese = await visibleText(page);
  assert.deepEqual(latinWords(chinese.replace(/\b[A-Z]\b/g, '')), [], chinese);
  assert.match(await page.title(), /一致性哈希/);
  // The embed view and a tour, in Chinese from the link.
  await page.goto(`${server.origin}/?lang=zh-CN&embed=1`);
  await ready(page);
  assert.deepEqual(latinWords(await visibleText(page)), []);
  await page.goto(`${server.origin}/?lang=zh-CN&tour=carp&step=2`);
  await ready(page);
  await page.waitForSelector('section.tour[data-step="2"] .narration:not(:empty)');
  const tour = (await visibleText(page)).replace(/redis\d|user:42|MD5\([^)]*\)/g, '');
  assert.deepEqual(latinWords(tour), [], tour);
  await screenshot(page, '50-zh-CN-carp-tour');
  // Errors too: each problem in the Chinese catalog's words.
  await page.goto(`${server.origin}/?lang=zh-CN&vnodes=0&nodes=A,A`);
  await ready(page);
  const error = await page.textContent('.error');
  assert.match(error, /未能载入此链接的场景：虚拟节点数 '0' 必须是 1 到 1000 的整数；服务器名称 'A' 出现了两次/);
  assert.deepEqual(latinWords(error.replace(/'[^']*'/g, '')), [], error);
});

test('the sample documentation page shows two embedded scenarios under its strict CSP', async () => {
  const { context } = browser;
  const { page, problems } = await openBrowser({ width: 900, height: 1200 }).then((b) => { b.parent = context; return b; });
  try {
    await page.goto(`${server.origin}/docs/embed/embed-example.html`);
    const frames = () => page.frames().filter((f) => f !== page.mainFrame());
    await page.waitForFunction(() => document.querySelectorAll('iframe').length === 2);
    for (const el of await page.$$('iframe')) await el.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => [...document.querySelectorAll('iframe')]
      .every((f) => f.contentDocument?.querySelector('canvas.ring[data-version]')
        && !f.contentDocument.querySelector('.summary progress')), null, { timeout: 60000 });
    const [modn, ring] = frames();
    assert.equal((await tableCounts(modn)).length, 4);
    assert.deepEqual((await tableCounts(ring)).map((r) => r.keys), [12162, 11834, 12827, 13177]);
    // The frame acts: add a server under mod N, almost every key moves.
    await modn.click('.embed-bar button.primary');
    await modn.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 5);
    assert.match(await modn.textContent('.summary'), /of 10,000 keys moved \(80\.0%/);
    const full = await modn.getAttribute('a.open-full', 'href');
    assert.doesNotMatch(full, /embed=1/);
    assert.match(full, /nodes=A,B,C,D,E/);
    await screenshot(page, '51-embed-example');
    assert.deepEqual(problems.console, [], 'no console error (CSP included)');
    assert.deepEqual(problems.outside, [], 'no request leaves the server');
  } finally {
    await page.context().close();
  }
});

test('the copied embed code, pasted into the sample page, shows the same scenario', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&algo=rendezvous&nodes=A,B,C&keys=0..3000`);
  await ready(page);
  const counts = await tableCounts(page);
  await page.click('details.share summary');
  const code = await page.inputValue('#embed-code');
  assert.match(code, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?.*embed=1.*" width="720" height="460" title="hashring-lab: Rendezvous \(HRW\), 3 servers, 3,000 keys" loading="lazy"><\/iframe>$/);
  await page.click('button:has-text("Copy embed code")');
  await page.waitForSelector('.copied');
  await page.goto(`${server.origin}/embed-example.html`);
  await page.evaluate((html) => document.querySelector('main').insertAdjacentHTML('afterbegin', html), code);
  const frame = await (await page.$('iframe')).contentFrame();
  await ready(frame);
  assert.deepEqual(await tableCounts(frame), counts);
});

test('exports parse back: counts CSV, a million keys CSV in steps, scenario JSON reopens', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&nodes=A,B,C*2&vnodes=50&keys=0..1000000`);
  await ready(page);
  const counts = await tableCounts(page);
  await page.click('details.export summary');
  const save = async (label) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`button:has-text("${label}")`)]);
    return readFile(await download.path(), 'utf8');
  };
  const csv = (await save('Keys per server (CSV)')).trim().split('\n');
  assert.equal(csv[0], 'server,up,weight,keys,share');
  assert.deepEqual(csv.slice(1).map((l) => Number(l.split(',')[3])), counts.map((c) => c.keys));
  // A million rows, written in steps behind a progress bar.
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120000 }),
    page.click('button:has-text("Every key\'s server (CSV)")')]);
  const keys = (await readFile(await download.path(), 'utf8')).trimEnd().split('\n');
  assert.equal(keys.length, 1_000_001);
  assert.equal(keys[0], 'key,position,server');
  const perServer = {};
  for (const line of keys.slice(1)) { const s = line.slice(line.lastIndexOf(',') + 1); perServer[s] = (perServer[s] || 0) + 1; }
  assert.deepEqual(perServer, Object.fromEntries(counts.map((c) => [c.name, c.keys])));
  // The scenario as JSON, reopened after a change: the same table.
  const json = await save('Scenario (JSON)');
  assert.equal(JSON.parse(json).format, 'hashring-lab scenario');
  const file = path.join(shots, 'scenario.json');
  await writeFile(file, json);
  await page.getByRole('button', { name: 'Add server' }).click();
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 4
    && !document.querySelector('.summary progress'), null, { timeout: 60000 });
  // The migration list of that change: the same rows, in the same order, as `simulate --moved`.
  const added = (await tableCounts(page))[3].name;
  const label = await page.textContent('button.export-moved');
  const [moved] = await Promise.all([page.waitForEvent('download', { timeout: 120000 }), page.click('button.export-moved')]);
  const rows = (await readFile(await moved.path(), 'utf8')).trimEnd().split('\n');
  assert.equal(label, `Moved keys: ${(rows.length - 1).toLocaleString('en-US')} (CSV)`);
  assert.match(await page.textContent('[role=status]'), new RegExp(`${(rows.length - 1).toLocaleString('en-US')} of 1,000,000 keys moved`));
  const cliList = path.join(shots, 'moved-cli.csv');
  cli(['simulate', '--nodes', 'A,B,C*2', '--vnodes', '50', '--keys', '0..1000000', '--step', `add:${added}`, '--moved', cliList]);
  const want = (await readFile(cliList, 'utf8')).trimEnd().split('\n');
  assert.equal(rows.length, want.length);
  assert.ok(rows.every((r, i) => r === want[i]), 'the page\'s list equals the command line\'s');
  assert.ok(rows.slice(1).every((r) => r.endsWith(`,${added},false`)), 'an add moves keys only to the new server');
  await page.setInputFiles('#open-scenario', file);
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 3
    && !document.querySelector('.summary progress'), null, { timeout: 60000 });
  assert.deepEqual(await tableCounts(page), counts);
  // A bad file: a message naming what is wrong, nothing changes.
  await page.setInputFiles('#open-scenario', { name: 'bad.json', mimeType: 'application/json',
    buffer: Buffer.from('{"format": "hashring-lab scenario", "version": 1, "vnodes": "5000", "colour": "red"}') });
  await page.waitForSelector('.error');
  const message = await page.textContent('.error');
  assert.match(message, /This file was not opened: unknown field 'colour'.*Nothing changed/);
  assert.deepEqual(await tableCounts(page), counts);
  await page.setInputFiles('#open-scenario', { name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('not json') });
  await page.waitForFunction(() => /not valid JSON/.test(document.querySelector('.error')?.textContent));
});

test('keyboard only: add, remove, the shortcut list, a tour', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en`);
  await ready(page);
  await page.keyboard.press('a');
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 5);
  await page.keyboard.press('r');
  await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length === 4);
  await page.keyboard.press('?');
  await page.waitForSelector('[role=dialog]');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Close');
  await screenshot(page, '52-shortcuts');
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('[role=dialog]'));
  await page.focus('#tour');
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector('section.tour[data-tour=modn][data-step="1"]');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('section.tour[data-step="2"]');
  await page.waitForFunction(() => document.querySelector('dd.stayed').textContent === '4');
  // Every control is reachable with Tab and shows a focus ring.
  const ring = await page.evaluate(() => {
    const b = document.querySelector('button.next');
    b.focus();
    return getComputedStyle(b).outlineStyle;
  });
  assert.notEqual(ring, 'none');
});

test('presentation mode and the light theme, screenshots and axe', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?tour=modn&lang=zh-CN&present=1&theme=dark`);
  await ready(page);
  await page.waitForSelector('section.tour .narration:not(:empty)');
  assert.ok(await page.$('.app.present'));
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  const size = await page.$eval('section.tour .narration', (n) => parseFloat(getComputedStyle(n).fontSize));
  assert.ok(size >= 28, `narration ${size}px`);
  await screenshot(page, '53-present-zh-CN');
  // Presenting without a tour, at 1280×720: the lookup and the readout's first words are
  // beside the ring, in the room's view, and a key followed there is told beside it too.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.origin}/?present=1&lang=en`);
  await ready(page);
  const lookup = page.locator('.side .lookup input');
  await lookup.fill('user:1001');
  await lookup.press('Enter');
  await page.waitForSelector('.side .lookup .explain');
  const inView = await page.evaluate(() => ['.side .lookup input', '.side .lookup .explain', '.side .readout'].map((q) => {
    const r = document.querySelector(q).getBoundingClientRect();
    return [q, r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= innerWidth / 2 - 20];
  }));
  assert.deepEqual(inView.filter(([, ok]) => !ok), [], 'beside the ring and on the screen');
  assert.match(await page.textContent('.side .lookup .explain'), /"user:1001"/);
  await screenshot(page, '53-present-no-tour-1280x720');
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`${server.origin}/?theme=light&lang=en`);
  await ready(page);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, 'rgb(244, 246, 250)');
  await screenshot(page, '54-light');
  await page.getByRole('button', { name: '☾ Dark' }).click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  assert.match(await page.evaluate(() => location.search), /theme=dark/);
});

test('axe finds no serious or critical violation', async () => {
  const { page } = browser;
  for (const query of ['', 'tour=java&step=2', 'lang=zh-CN', 'embed=1', 'present=1&tour=modn', 'theme=light', 'theme=dark',
    'tour=carp&lang=zh-CN']) {
    await page.goto(`${server.origin}/?${query}`);
    await ready(page);
    assert.deepEqual(await axeViolations(page), [], query || 'default page');
  }
  await page.goto(`${server.origin}/?view=compare`);
  // The verdict appears once every registered algorithm has its row.
  await page.waitForFunction(() => document.querySelector('.compare .verdict'), null, { timeout: 60000 });
  assert.deepEqual(await axeViolations(page), [], 'compare view');
  await page.goto(`${server.origin}/?tour=carp&step=2`);
  await ready(page);
  // The QR dialog, the speaker notes and a 320×240 embed.
  await page.keyboard.press('q');
  await page.locator('.dialog svg.qr').waitFor();
  assert.deepEqual(await axeViolations(page), [], 'QR dialog');
  await page.goto(`${server.origin}/?notes=1&tour=vnodes&step=4`);
  await page.waitForSelector('section.tour[data-step="4"] .narration:not(:empty)');
  assert.deepEqual(await axeViolations(page), [], 'speaker notes');
  const size = page.viewportSize();
  await page.setViewportSize({ width: 320, height: 240 });
  try {
    await page.goto(`${server.origin}/?embed=1`);
    await ready(page);
    await page.getByRole('button', { name: 'Add server' }).click();
    await page.waitForFunction(() => /moved/.test(document.querySelector('.moved-short')?.textContent || ''));
    assert.deepEqual(await axeViolations(page), [], '320×240 embed after a change');
  } finally {
    await page.setViewportSize(size);
  }
});

test('speaker notes follow the presenting window, and turn its pages', async () => {
  const { page, context } = browser;
  await page.goto(`${server.origin}/?tour=carp&lang=en`);
  await ready(page);
  await page.waitForSelector('section.tour[data-step="1"] .narration:not(:empty)');
  const [notes] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Speaker notes' }).click(),
  ]);
  await notes.waitForLoadState();
  assert.match(notes.url(), /notes=1/);
  await notes.waitForSelector('section.tour[data-step="1"] .narration:not(:empty)');
  // The same narration as the presenter's, what to point at, and what Next does.
  assert.equal(await notes.textContent('section.tour .narration'), await page.textContent('section.tour .narration'));
  assert.equal(await notes.textContent('.notes-tips .point'), 'Point at: the lookup and its explanation.');
  assert.equal(await notes.textContent('.notes-tips .next'), 'Next step: Added redis5.');
  assert.match(await notes.textContent('form.predict p'), /adds redis5/);
  assert.equal(await notes.locator('canvas').count(), 0, 'the notes draw no ring');
  // The presenter steps on: the notes follow.
  await page.getByRole('button', { name: 'Next →' }).click();
  await notes.waitForSelector('section.tour[data-step="2"] .narration:not(:empty)');
  await page.waitForSelector('section.tour[data-step="2"] .narration:not(:empty)');
  assert.equal(await notes.textContent('section.tour .narration'), await page.textContent('section.tour .narration'));
  assert.equal(await notes.textContent('.notes-tips .next'), 'Next step: a new scenario, look up {user1}.following.');
  await screenshot(notes, '57-speaker-notes');
  // ← in the notes turns the presenter's page back; A there adds nothing.
  await notes.keyboard.press('a');
  await notes.keyboard.press('ArrowLeft');
  await page.waitForSelector('section.tour[data-step="1"] .narration:not(:empty)');
  assert.equal((await tableCounts(page)).length, 4);
  await notes.close();
});

test('Q shows the link as a QR code that a phone reads back as the same view', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?tour=carp&step=2&present=1&lang=en`);
  await ready(page);
  await page.waitForSelector('section.tour[data-step="2"] .narration:not(:empty)');
  await page.keyboard.press('q');
  const svg = page.locator('.dialog svg.qr');
  await svg.waitFor();
  await screenshot(page, '58-qr-present');
  // Big enough for the back row: at least 40% of the window's height.
  const box = await svg.boundingBox();
  assert.ok(box.height >= 0.4 * page.viewportSize().height, JSON.stringify(box));
  // Decoded the way a phone does (jsQR, from the pixels the browser draws).
  await page.evaluate(jsqrSource);
  const decoded = await page.evaluate(async () => {
    const svg = document.querySelector('.dialog svg.qr');
    const url = 'data:image/svg+xml;base64,' + btoa(new XMLSerializer().serializeToString(svg));
    const img = new Image();
    img.src = url;
    await img.decode();
    const side = 600;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = side;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0, side, side);
    const pixels = ctx.getImageData(0, 0, side, side);
    return window.jsQR(pixels.data, side, side)?.data ?? null;
  });
  assert.ok(decoded, 'the QR code decodes');
  const link = new URL(decoded);
  assert.equal(link.origin + link.pathname, `${server.origin}/`);
  assert.equal(link.searchParams.get('tour'), 'carp');
  assert.equal(link.searchParams.get('step'), '2');
  assert.equal(link.searchParams.get('present'), null, 'phones open the normal view');
  assert.equal(await page.textContent('.dialog .qr-link'), decoded);
  // This page was opened at 127.0.0.1: the dialog says the room's phones cannot open it,
  // and how to serve a link they can.
  const note = page.locator('.dialog .qr-loopback');
  assert.ok(await note.isVisible(), 'the loopback note shows');
  assert.match(await note.textContent(), /^Only this computer opens 127\.0\.0\.1\. For phones: make serve HOST=0\.0\.0\.0/);
  // Esc closes it; the Share card's button opens it too.
  await page.keyboard.press('Escape');
  await page.waitForSelector('.dialog', { state: 'detached' });
});

/** The keys' names drawn on the ring (the canvas records each box, CSS pixels). */
const keyLabels = (page) => page.$eval('canvas.ring', (c) => (c.dataset.keyLabels || '').split('\n').filter(Boolean).map((line) => {
  const parts = line.split(' ');
  const [x, y, w, h] = parts.slice(-4).map(Number);
  return { text: parts.slice(0, -4).join(' '), x, y, w, h };
}));

// Presenting for the back row (issue 49): the ring's smallest text (ticks, key names) at
// least 24 px on a 1080p projector and 16 px at 720p, server labels larger; the load chart's
// plot at least a fifth of the screen's height and on it; the readout and its from → to
// table on the screen, whole. In the mod-N tour, no two key names overlap and the key the
// narration names is named.
const PRESENTED = ['modn', 'ring', 'java'];
for (const [width, height] of [[1920, 1080], [1280, 720]]) {
  test(`presenting the ${PRESENTED.join(', ')} tours at ${width}×${height}: text for the back row, a chart a fifth of the screen, the readout on it`, async () => {
    const b = await openBrowser({ width, height });
    const smallest = height >= 1080 ? 24 : 16;
    try {
      const { page } = b;
      for (const tour of PRESENTED) {
        await page.goto(`${server.origin}/?lang=en&tour=${tour}&step=1&present=1`);
        await ready(page);
        for (let step = 1; step <= TOURS[tour]; step++) {
          const where = `${tour} step ${step}`;
          if (step > 1) await page.click('section.tour button.next');
          await page.waitForFunction(tourSettled, [tour, step]);
          await page.waitForFunction(() => document.querySelector('canvas.ring').dataset.textPx
            && document.querySelector('canvas.load')?.dataset.plot);
          // The ring's text, from the page's own label layout.
          const ring = await page.$eval('canvas.ring', (c) => ({
            text: Number(c.dataset.textPx),
            labels: (c.dataset.labels || '').split(';').filter(Boolean).map((l) => Number(l.split(' ')[4])),
          }));
          assert.ok(ring.text >= smallest, `${where}: the ring's smallest text is ${ring.text} px`);
          for (const h of ring.labels) assert.ok(h / 1.25 > ring.text, `${where}: a server label ${h} px high`);
          // The load chart's plot, where the page says it drew it.
          const plot = await page.$eval('canvas.load', (c) => {
            const [x, y, w, h] = c.dataset.plot.split(' ').map(Number);
            const r = c.getBoundingClientRect();
            return { h, bottom: r.top + y + h, canvasBottom: r.bottom };
          });
          assert.ok(plot.h >= height * 0.2, `${where}: the load chart's plot is ${plot.h} px high on a ${height} px screen`);
          assert.ok(plot.canvasBottom <= height, `${where}: the load chart ends at ${plot.canvasBottom}`);
          // The readout, and its from → to table when the step shows it, whole on the screen.
          const readout = await page.$eval('.readout', (r) => {
            const box = r.getBoundingClientRect();
            const table = r.querySelector('table.flows');
            const t = table?.offsetParent ? table.getBoundingClientRect() : null;
            return { bottom: box.bottom, right: box.right, table: t && { bottom: t.bottom, right: t.right } };
          });
          assert.ok(readout.bottom <= height, `${where}: the readout ends at ${readout.bottom} on a ${height} px screen`);
          if (readout.table) {
            assert.ok(readout.table.bottom <= height && readout.table.right <= readout.right,
              `${where}: the from → to table ends at ${JSON.stringify(readout.table)}, the readout at ${readout.right}`);
          }
          if (tour === 'modn') {
            await page.waitForFunction(() => document.querySelector('canvas.ring').dataset.keyLabels);
            const labels = await keyLabels(page);
            assert.ok(labels.length >= 12, `${where}: ${labels.length} keys named`);
            for (let i = 0; i < labels.length; i++) {
              for (const o of labels.slice(i + 1)) {
                const a = labels[i];
                // (The record rounds to 0.1 px: boxes that touch may read 0.1 px over.)
                const e = 0.15;
                const apart = a.x + a.w <= o.x + e || o.x + o.w <= a.x + e || a.y + a.h <= o.y + e || o.y + o.h <= a.y + e;
                assert.ok(apart, `${where}: "${a.text}" and "${o.text}" overlap: ${JSON.stringify([a, o])}`);
              }
            }
            if (step === 2) assert.ok(labels.some((l) => l.text === '20'), 'key 20 is named');
          }
          if (step === 2) await capture(page, `target/e2e/49-present-${tour}-${width}x${height}.png`);
        }
      }
      assert.deepEqual(b.problems.console, []);
    } finally {
      await b.context.close();
    }
  });
}
