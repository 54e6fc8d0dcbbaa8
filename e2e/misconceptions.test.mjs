// Misconceptions named where a lesson meets them: each a block marked `data-misconception`, the
// claim as people repeat it, then what holds. Counted on every lesson page, and read on a phone:
// open, nothing wider than the screen, its text no smaller than the page's body text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage, screenshotPath } from './support/browser.mjs';

const site = useSite();

/** Which misconceptions each lesson names (the rest name none yet). */
const NAMED = {
  race: ['race-serializes'],
  reduction: ['reduction-5000'],
  subgroups: ['lockstep'],
  histogram: ['one-address', 'privatization-factor'],
  barrier: ['error-checking', 'divergent-barrier', 'barrier-cycles'],
  spinlock: ['cas-mutex'],
  scopes: ['atomic-default-scope'],
  'producer-consumer': ['volatile-fence', 'plain-flag'],
  'message-passing': ['fence-publishes', 'one-fence', 'acq-rel-fence'],
};

test('each named misconception is on its lesson, legible on a 375-px phone', async () => {
  let count = 0;
  for (const [lesson, names] of Object.entries(NAMED)) {
    const page = await openPage(site.browser, `${site.url}?lesson=${lesson}`, { viewport: { width: 375, height: 812 }, colorScheme: 'dark' });
    await page.getByTestId('model-player').waitFor();
    // Folded with the rest of the lesson's text: opened as a reader would.
    await page.locator('details:has([data-misconception]) > summary').first().click();
    const found = await page.locator('[data-misconception]').evaluateAll((blocks) => blocks.map((b) => b.dataset.misconception));
    assert.deepEqual(found, names, lesson);
    for (const name of names) {
      const block = page.locator(`[data-misconception="${name}"]`);
      // Opened above by its summary, as a reader would; on a loaded machine the text can be drawn
      // again after that click, closed, so make sure its fold is open before reading it.
      await block.evaluate((b) => { const fold = b.closest('details'); if (fold && !fold.open) fold.open = true; });
      await block.waitFor({ state: 'visible' });
      await block.scrollIntoViewIfNeeded();
      assert.match(await block.innerText(), /^A common claim: .+\n+.*\S/s, `${lesson}: ${name}`);
      const look = await block.evaluate((b) => {
        const body = parseFloat(getComputedStyle(document.querySelector('.prose p') ?? document.body).fontSize);
        const smallest = Math.min(...[...b.querySelectorAll('p, code, strong')].map((e) => parseFloat(getComputedStyle(e).fontSize)));
        const box = b.getBoundingClientRect();
        return { body, smallest, right: box.right, width: window.innerWidth };
      });
      assert.ok(look.smallest >= 11 && look.smallest >= look.body * 0.85, `${lesson}: ${name} ${JSON.stringify(look)}`);
      assert.ok(look.right <= look.width, `${lesson}: ${name} wider than the phone ${JSON.stringify(look)}`);
      count++;
    }
    if (lesson === 'reduction') await page.locator('[data-misconception]').first().screenshot({ path: screenshotPath('misconception-phone-dark') });
    assert.deepEqual(page.errors, []);
  }
  assert.equal(count, Object.values(NAMED).flat().length);
});
