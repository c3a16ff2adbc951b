// Your cluster (issue 18): a pasted nginx upstream becomes the scenario — nginx's algorithm,
// the servers as the config writes them, their weights — and a key goes where Debian's nginx
// sent it (tests/reference/nginx.txt); a config that is not consistent hashing is refused
// with the reason, and nothing changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, openBrowser, ready, tableCounts, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await openBrowser({ width: 1440, height: 900 }); });
after(async () => { await browser?.context.close(); await server?.close(); });

const NGINX = `upstream pool {
    hash $arg_key consistent;
    server 127.0.0.1:18181;
    server 127.0.0.1:18182 weight=2;
    server 127.0.0.1:18183;
    server 127.0.0.1:18199 backup;
}`;

test('a pasted nginx upstream becomes the scenario and places keys as nginx did', async () => {
  const { page } = browser;
  await page.goto(`${server.origin}/?lang=en&keys=${encodeURIComponent('key-{i}:0..2000')}`);
  await ready(page);
  await page.click('details.export summary');
  await page.fill('#config-text', NGINX);
  await page.click('button.use-config');
  await page.waitForFunction(() => new URL(location).searchParams.get('algo') === 'nginx'
    && !document.querySelector('.summary progress'));
  await ready(page);
  const counts = await tableCounts(page);
  assert.deepEqual(counts.map((r) => r.name), ['127.0.0.1:18181', '127.0.0.1:18182', '127.0.0.1:18183']);
  for (const [key, want] of [['key-0', '127.0.0.1:18183'], ['key-1', '127.0.0.1:18181'], ['user:42', '127.0.0.1:18182']]) {
    await page.fill('#lookup-key', key);
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.waitForFunction((k) => document.querySelector('.explain')?.textContent.includes(`"${k}"`), key);
    assert.match(await page.textContent('.explain'), new RegExp(`→ server ${want.replace(/\./g, '\\.')}$`), key);
  }
  await screenshot(page, '80-nginx-config');
  // A round-robin upstream is refused with the reason; the scenario stays.
  await page.fill('#config-text', 'upstream pool {\n  server a:80;\n}');
  await page.click('button.use-config');
  await page.waitForFunction(() => /round robin/.test(document.querySelector('.error')?.textContent || ''));
  assert.deepEqual((await tableCounts(page)).map((r) => r.name), counts.map((r) => r.name));
});
