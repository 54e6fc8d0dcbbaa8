// Readable on a phone, in dark mode, with reduced motion; every control reachable by Tab
// with a visible focus ring.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage, screenshotPath } from './support/browser.mjs';

const site = useSite();

test('a 375-px phone in dark mode: nothing wider than the screen', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race`, {
    viewport: { width: 375, height: 812 },
    colorScheme: 'dark',
    reducedMotion: 'reduce',
  });
  await page.getByTestId('model-player').waitFor();
  await page.getByTestId('model-step').click();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(background, 'rgb(251, 250, 247)', 'dark scheme applied');
  const transition = await page.evaluate(() => getComputedStyle(document.querySelector('.lane')).transitionDuration);
  assert.match(transition, /^0s/, 'no transitions under reduced motion');
  await page.screenshot({ path: screenshotPath('race-phone-dark'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('Tab reaches the controls, and focus is visible', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race`);
  await page.getByTestId('model-player').waitFor();
  const seen = new Set();
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { id: el.dataset.testid ?? el.tagName, outline: style.outlineStyle, width: style.outlineWidth };
    });
    seen.add(info.id);
    if (info.id === 'model-step') {
      assert.equal(info.outline, 'solid');
      assert.notEqual(info.width, '0px');
      await page.keyboard.press('Enter');
    }
  }
  for (const id of ['variant-racy', 'variant-atomic', 'model-threads', 'schedule', 'model-step', 'model-play', 'model-scrub']) {
    assert.ok(seen.has(id), `${id} not reached by Tab (reached: ${[...seen].join(', ')})`);
  }
  assert.match(await page.getByTestId('step-index').textContent(), /step 1 \//);
  assert.deepEqual(page.errors, []);
});
