// A link copied from the race lesson reopens exactly what the reader saw: variant, schedule,
// seed, hand-picked steps, the current step and the GPU sizes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { RacePage } from './support/race_page.mjs';
import { showGpuPanel } from './support/browser.mjs';

const site = useSite();

/** Everything on screen that the model's state decides. */
async function modelState(lesson) {
  // The GPU sizes are in the GPU half, which comes with its panel.
  await showGpuPanel(lesson.page);
  await lesson.testId('gpu-invocations').waitFor();
  return lesson.page.evaluate(() => {
    const text = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent.trim();
    return {
      step: text('step-index'),
      counter: text('model-counter'),
      narration: text('narration'),
      lanes: [...document.querySelectorAll('[data-testid^="lane-"][data-testid$="-value"]')].map((e) => e.textContent),
      pcs: [...document.querySelectorAll('.lane .pc')].map((e) => e.textContent),
      scene: document.querySelector('[data-testid=scene] svg').getAttribute('aria-label'),
      variant: document.querySelector('[data-testid=variant-atomic]').getAttribute('aria-checked'),
      schedule: document.querySelector('[data-testid=schedule]').value,
      invocations: document.querySelector('[data-testid=gpu-invocations]').value,
      workgroup: document.querySelector('[data-testid=gpu-workgroup]').value,
    };
  });
}

/** The address once the page has caught up with the last change (the page marks the root
 * element while its address is behind). */
async function settledUrl(page) {
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-link-pending'));
  return page.url();
}

test('a random schedule at step 5 with GPU sizes reopens the same', async () => {
  const lesson = await RacePage.open(site.browser, site.url, '&threads=5');
  await lesson.chooseSchedule('random');
  await lesson.testId('seed').fill('917');
  await lesson.testId('seed').press('Enter');
  await lesson.testId('seed').blur();
  await lesson.setGpuSize(2048, 128);
  for (let i = 0; i < 5; i++) await lesson.testId('model-step').click();
  const url = await settledUrl(lesson.page);
  for (const part of ['variant=racy', 'threads=5', 'schedule=random', 'seed=917', 'step=5', 'invocations=2048', 'workgroup=128']) {
    assert.ok(url.includes(part), `${part} missing from ${url}`);
  }
  const before = await modelState(lesson);
  assert.equal(before.step, 'step 5 / 10');

  const again = new RacePage(await (await import('./support/browser.mjs')).openPage(site.browser, url));
  await again.testId('model-player').waitFor();
  assert.deepEqual(await modelState(again), before);
  assert.equal(await again.testId('param-error').count(), 0);
  lesson.assertNoConsoleErrors();
  again.assertNoConsoleErrors();
});

test('hand-picked steps travel in the link, atomic variant included', async () => {
  const lesson = await RacePage.open(site.browser, site.url, '&threads=3');
  await lesson.chooseVariant('atomic');
  await lesson.chooseSchedule('manual');
  for (const t of [2, 0, 1]) await lesson.testId(`step-thread-${t}`).click();
  await lesson.page.keyboard.press('ArrowLeft');
  const url = await settledUrl(lesson.page);
  assert.ok(url.includes('schedule=manual') && url.includes('ticks=2,0,1') && url.includes('step=2'), url);
  const before = await modelState(lesson);

  const { openPage } = await import('./support/browser.mjs');
  const again = new RacePage(await openPage(site.browser, url));
  await again.testId('model-player').waitFor();
  assert.deepEqual(await modelState(again), before);
  // The redo the reader had is there too: stepping forward takes thread 1's pick.
  await again.page.keyboard.press('ArrowRight');
  assert.match(await again.text('narration'), /thread 1 atomically adds/);
  again.assertNoConsoleErrors();
});

test('"Copy link" puts the current address on the clipboard', async () => {
  const { openPage } = await import('./support/browser.mjs');
  const page = await openPage(site.browser, `${site.url}?lesson=race&threads=2`, {
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const lesson = new RacePage(page);
  await lesson.testId('model-player').waitFor();
  await page.keyboard.press('End');
  const url = await settledUrl(page);
  await lesson.testId('copy-link').click();
  await page.getByText('Link copied.').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url);
  assert.ok(url.includes('step=2'), url);
  lesson.assertNoConsoleErrors();
});
