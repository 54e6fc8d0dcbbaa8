// Readable on a phone, in dark mode, with reduced motion; every control reachable by Tab
// with a visible focus ring. (Every lesson fitting a phone after a GPU run is checked in the
// one pass over every lesson of e2e/hosting.test.mjs.)
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

test('the atomic-ops setup works from the keyboard alone', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=atomic-ops`);
  await page.getByTestId('model-player').waitFor();
  await page.getByTestId('atomic-op').focus();
  await page.keyboard.press('ArrowDown'); // add → sub
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab'); // type, initial value, operands
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'atomic-operands');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('9,1');
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => location.search.includes('operands=9,1'));
  assert.match(page.url(), /op=sub/);
  await page.keyboard.press('End');
  assert.equal((await page.getByTestId('model-cell').textContent()).trim(), String(2 ** 32 - 10), '0 - 9 - 1 wraps on u32');
  assert.deepEqual(page.errors, []);
});

test('Tab reaches the controls, and focus is visible', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race`);
  await page.getByTestId('model-player').waitFor();
  const seen = new Set();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { id: el.dataset.testid ?? el.tagName, outline: style.outlineStyle, width: style.outlineWidth };
    });
    seen.add(info.id);
    if (info.id === 'model-step' && !seen.has('stepped')) {
      seen.add('stepped');
      assert.equal(info.outline, 'solid');
      assert.notEqual(info.width, '0px');
      await page.keyboard.press('Enter');
    }
  }
  for (const id of ['variant-racy', 'variant-atomic', 'copy-link', 'model-threads', 'schedule', 'model-step', 'model-play', 'model-scrub',
    'model-speed', 'gpu-invocations', 'gpu-workgroup', 'gpu-run', 'gpu-run-100', 'replay-record']) {
    assert.ok(seen.has(id), `${id} not reached by Tab (reached: ${[...seen].join(', ')})`);
  }
  assert.match(await page.getByTestId('step-index').textContent(), /step 1 \//);
  assert.deepEqual(page.errors, []);
});

test('each step is narrated in a live region, and a wide lockstep tick is summed up', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race&threads=64`);
  await page.getByTestId('model-player').waitFor();
  const narration = page.getByTestId('narration');
  assert.equal(await narration.getAttribute('aria-live'), 'polite');
  await page.keyboard.press('ArrowRight');
  assert.equal(
    (await narration.textContent()).trim(),
    '64 threads move together: thread 0 loads 0 from counter; thread 1 loads 0 from counter; thread 2 loads 0 from counter; and 61 more',
  );
  // From here round-robin takes over: one thread at a time, starting again at thread 0.
  await page.getByTestId('schedule').selectOption('round-robin');
  await page.getByTestId('model-step').click();
  assert.equal((await narration.textContent()).trim(), 'thread 0 adds in its register: 0 → 1');
  await page.locator('.model-panel').screenshot({ path: screenshotPath('race-64-lanes') });
  assert.deepEqual(page.errors, []);
});
