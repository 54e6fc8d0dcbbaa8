// The kernel's running line stays in sight while the model steps: the code scrolls inside its
// own box beside the scene, and the page itself does not move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage } from './support/browser.mjs';

const site = useSite({ webgpu: false });

/** Where the first running line stands against the code's box, and the page's own scroll. */
const where = () => {
  const pre = document.querySelector('.code-panel pre');
  const line = pre.querySelector('.code-line.current');
  if (!line) return null;
  const [box, at] = [pre.getBoundingClientRect(), line.getBoundingClientRect()];
  return { line: Number(line.dataset.line), inside: at.top >= box.top - 1 && at.bottom <= box.bottom + 1, scrolled: pre.scrollTop, page: window.scrollY };
};

test('the single pass: stepping deep into a long kernel scrolls its box, not the page', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=scan`, { viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });
  await page.getByTestId('model-player').waitFor();
  const lines = await page.locator('.code-panel .code-line').count();
  let deepest = 0;
  let scrolledAtMost = 0;
  for (let step = 0; step < 400 && deepest * 2 < lines; step++) {
    await page.keyboard.press('ArrowRight');
    // The box follows once the browser has laid the step out (an intersection observer).
    const now = await (await page.waitForFunction((where) => {
      const w = eval(where)();
      return w === null || w.inside ? w ?? {} : false;
    }, `(${where})`)).jsonValue();
    if (!now.line) break;
    assert.equal(now.page, 0, `the page scrolled at line ${now.line}`);
    deepest = Math.max(deepest, now.line);
    scrolledAtMost = Math.max(scrolledAtMost, now.scrolled);
  }
  assert.ok(deepest * 2 >= lines, `the run reached line ${deepest} of ${lines}`);
  assert.ok(scrolledAtMost > 0, 'the code box scrolled to follow the run');
  assert.deepEqual(page.errors, []);
});
