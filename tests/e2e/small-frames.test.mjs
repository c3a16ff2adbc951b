// A tour in a documentation column's frame is text first (issue 49): at 320×240, 480×360 and
// 720×460 (and 480×360 in zh-CN), at every step of the ring and java tours, the narration's
// whole text is in the frame — not a scroll box showing part of it — and Next is inside the
// frame and is what a click at its centre hits. Screenshots: target/e2e/49-tour-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, openBrowser, screenshot, tourSettled, TOURS } from './harness.mjs';

let server;
before(async () => { server = await serveDist(); });
after(async () => { await server?.close(); });

const FRAMES = [[320, 240, 'en'], [480, 360, 'en'], [720, 460, 'en'], [480, 360, 'zh-CN']];

for (const [width, height, lang] of FRAMES) {
  for (const tour of ['ring', 'java']) {
    test(`${tour} tour in a ${width}×${height} ${lang} embed: every step's words whole and Next in the frame`, async () => {
      const { page, context } = await openBrowser({ width, height });
      try {
        await page.goto(`${server.origin}/?embed=1&lang=${lang}&tour=${tour}`);
        const problems = [];
        for (let step = 1; step <= TOURS[tour]; step++) {
          await page.waitForFunction(tourSettled, [tour, step], { timeout: 60000 });
          const seen = await page.evaluate(() => {
            const narration = document.querySelector('section.tour .narration');
            const next = document.querySelector('section.tour button.next');
            const n = narration.getBoundingClientRect();
            const b = next.getBoundingClientRect();
            const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
            return {
              clipped: narration.scrollHeight > narration.clientHeight + 1,
              narrationInside: n.top >= 0 && n.bottom <= innerHeight + 0.5 && n.height > 0,
              nextInside: b.top >= 0 && b.bottom <= innerHeight + 0.5 && b.left >= 0 && b.right <= innerWidth + 0.5,
              nextHit: !!hit && next.contains(hit),
              text: narration.textContent.slice(0, 30),
            };
          });
          const where = `step ${step} ("${seen.text}…")`;
          if (seen.clipped) problems.push(`${where}: the narration scrolls`);
          if (!seen.narrationInside) problems.push(`${where}: the narration leaves the frame`);
          if (!seen.nextInside) problems.push(`${where}: Next is outside the frame`);
          if (!seen.nextHit) problems.push(`${where}: a click on Next hits something else`);
          if (step === 1) await screenshot(page, `49-tour-${tour}-${width}x${height}-${lang}`);
          if (step < TOURS[tour]) await page.locator('section.tour button.next').click();
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  }
}
