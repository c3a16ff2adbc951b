// Each key's server as the page places it, for scenarios given as link queries on stdin (one
// JSON list): the page is loaded with each, and its "Every key's server (CSV)" export read.
// Prints a JSON list of {key: server} maps. Not a test of its own: the Python package's tests
// (bindings/python/tests/test_page_agreement.py) compare its answers with the package's and the
// command line's.
import { readFile } from 'node:fs/promises';
import { serveDist, openBrowser, closeBrowsers } from './harness.mjs';

const links = JSON.parse(await readFile('/dev/stdin', 'utf8'));
const server = await serveDist();
const { page, problems } = await openBrowser();
const answers = [];
try {
  for (const query of links) {
    await page.goto(`${server.origin}/?lang=en&${query}`);
    await page.waitForFunction(() => document.querySelectorAll('table.counts tbody tr').length > 0
      && !document.querySelector('.summary progress') && !document.querySelector('.error'), null, { timeout: 60000 });
    if (!(await page.locator('details.export[open]').count())) await page.click('details.export summary');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('button.export-keys')]);
    const rows = (await readFile(await download.path(), 'utf8')).trimEnd().split('\n').slice(1);
    // key,position,server — a key may hold a comma (CSV-quoted); the server is the last field.
    answers.push(Object.fromEntries(rows.map((r) => {
      const server = r.slice(r.lastIndexOf(',') + 1);
      let key = r.slice(0, r.lastIndexOf(',', r.lastIndexOf(',') - 1));
      if (key.startsWith('"')) key = key.slice(1, -1).replaceAll('""', '"');
      return [key, server];
    })));
  }
} finally {
  await closeBrowsers();
  await server.close();
}
if (problems.console.length) throw new Error(`console errors: ${problems.console.join('; ')}`);
process.stdout.write(JSON.stringify(answers));
