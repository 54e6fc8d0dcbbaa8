// The run on screen is the run its controls name. On every lesson with a model, every variant
// and every schedule is switched to mid-run, and the model panel is then compared with a fresh
// load of the page's own link: after the switch, and after the switch, Reset and End (when no
// order from before the reset may be left in the link).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage } from './support/browser.mjs';

const site = useSite();

// Every lesson whose page steps a model with the shared controls (the litmus lab and the
// CUDA map have no schedule menu).
const LESSONS = [
  'race', 'atomic-counter', 'append', 'cas-max', 'atomic-ops', 'spinlock', 'barrier', 'reduction',
  'subgroups', 'tiled', 'histogram', 'message-passing', 'producer-consumer', 'scopes', 'arrive-wait',
  'semaphore', 'scan', 'grid-barrier',
];

// Motion off, so the scene stands where the run does rather than somewhere in a glide.
const OPTIONS = { reducedMotion: 'reduce' };

/** Everything the model panel and the kernel's marks show of the run. */
async function modelPanel(page) {
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-link-pending'));
  // The timeline comes with the first step, in a chunk of its own: both tabs show it drawn.
  await page.waitForFunction(() => !document.querySelector('[data-pending]'));
  return page.evaluate(() => {
    const panel = document.querySelector('.model-panel');
    const scene = panel.querySelector('[data-testid=scene] svg');
    const timeline = panel.querySelector('[data-testid=timeline] svg');
    // The scene's words, and the classes that tint or badge its cells and lanes.
    const drawn = scene
      ? [...scene.querySelectorAll('text, [class]')]
        .filter((e) => !e.closest('.flight'))
        .map((e) => (e.tagName === 'text' ? `${e.textContent}` : `.${e.getAttribute('class')}`))
        .join('|')
      : '';
    return {
      text: panel.innerText,
      threads: panel.querySelector('[data-testid=model-threads]')?.value,
      schedule: panel.querySelector('[data-testid=schedule]')?.value,
      checked: [...document.querySelectorAll('.variant-toggle [role=radio][aria-checked=true]')].map((b) => b.dataset.testid),
      scene: scene?.getAttribute('aria-label'),
      drawn,
      timeline: timeline ? [...timeline.querySelectorAll('.tl-step:not([display=none])')].map((g) => g.innerHTML).join('') : '',
      marks: [...document.querySelectorAll('.code-panel .code-line')].map((l) => l.className + (l.querySelector('.marks, .thread-marks')?.textContent ?? '')).join('|'),
    };
  });
}

/** The model panel of a fresh load of `page`'s current link, in the second tab `fresh`. */
async function freshLoad(page, fresh) {
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-link-pending'));
  const url = page.url();
  await fresh.goto(url);
  await fresh.getByTestId('model-player').waitFor();
  return { url, panel: await modelPanel(fresh) };
}

async function assertSameAsFresh(page, fresh, what) {
  const shown = await modelPanel(page);
  const { url, panel } = await freshLoad(page, fresh);
  for (const key of Object.keys(shown)) {
    assert.deepEqual(shown[key], panel[key], `${what}: ${key} differs from a fresh load of ${url}`);
  }
  return url;
}

/** The run's end (the keys act only while no field has the focus). */
async function toEnd(page) {
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('End');
}

/** Step `n` of the run, by its scrub bar. */
async function scrubTo(page, n) {
  await page.getByTestId('model-scrub').fill(String(n));
  await page.evaluate(() => document.activeElement?.blur());
}

async function stepIndex(page) {
  const m = (await page.getByTestId('step-index').textContent()).match(/step (\d+) \/ (\d+)/);
  return [Number(m[1]), Number(m[2])];
}

for (const id of LESSONS) {
  test(`${id}: every variant and schedule switched mid-run shows what its link shows`, async () => {
    const page = await openPage(site.browser, `${site.url}?lesson=${id}`, OPTIONS);
    await page.getByTestId('model-player').waitFor();
    const fresh = await openPage(site.browser, `${site.url}?lesson=${id}`, { ...OPTIONS, fresh: true });
    const errors = [];
    for (const p of [page, fresh]) p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

    // Every variant, switched to a few steps into the run of the one before.
    const variants = await page.locator('.lesson-bar .variant-toggle [role=radio], .model-panel .variant-toggle [role=radio]').evaluateAll(
      (buttons) => buttons.map((b) => b.dataset.testid),
    );
    for (const variant of [...variants.slice(1), variants[0]].filter(Boolean)) {
      await toEnd(page);
      const [, total] = await stepIndex(page);
      await scrubTo(page, Math.min(3, total));
      await page.getByTestId(variant).click();
      await assertSameAsFresh(page, fresh, `${id}, ${variant} picked at step ${Math.min(3, total)}`);
      await toEnd(page);
      await assertSameAsFresh(page, fresh, `${id}, ${variant} picked, then End`);
    }

    // Every schedule, switched to at the end of the run of the one before or at a step (each
    // in turn), and after that Reset and End.
    const schedules = await page.getByTestId('schedule').locator('option').evaluateAll((os) => os.map((o) => o.value));
    for (const [i, schedule] of [...schedules.slice(1), schedules[0]].entries()) {
      for (const at of [i % 2 ? 'end' : 'step 2']) {
        await toEnd(page);
        if (at !== 'end') await scrubTo(page, 2);
        await page.getByTestId('schedule').selectOption(schedule);
        await page.getByTestId('schedule').blur();
        await assertSameAsFresh(page, fresh, `${id}, ${schedule} picked at the ${at}`);
        await page.getByTestId('model-reset').click();
        await toEnd(page);
        const url = await assertSameAsFresh(page, fresh, `${id}, ${schedule} picked at the ${at}, Reset, End`);
        if (schedule !== 'manual') {
          assert.ok(!/[?&]ticks=/.test(url), `${id}, ${schedule}: a reset run keeps an old order: ${url}`);
          assert.equal(await page.getByTestId('kept-order').count(), 0, `${id}, ${schedule}: says an order is kept after a reset`);
        }
      }
    }
    assert.deepEqual(errors, [], `${id}: console errors`);
  });
}

test('a schedule switched at the end says the steps before it are kept, and Reset runs the new one', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race&threads=4&schedule=serial`, OPTIONS);
  await page.getByTestId('model-player').waitFor();
  await page.keyboard.press('End');
  assert.match(await page.getByTestId('model-outcome').textContent(), /4 of 4/);
  await page.getByTestId('schedule').selectOption('round-robin');
  assert.match(await page.getByTestId('kept-order').textContent(), /Steps 1 to 8 came from an earlier schedule; Reset starts a run of this one/);
  await page.getByTestId('model-reset').click();
  assert.equal(await page.getByTestId('kept-order').count(), 0);
  await page.getByTestId('model-play').click();
  await page.waitForFunction(() => /step 8 \/ 8/.test(document.querySelector('[data-testid=step-index]').textContent), null, { timeout: 30_000 });
  // A fresh round-robin run of four increments loses three.
  assert.match(await page.getByTestId('model-outcome').textContent(), /1 of 4 increments counted — 3 lost/);
});

test('picks by hand survive a reset, and the page says so', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race&threads=2&schedule=manual`, OPTIONS);
  await page.getByTestId('model-player').waitFor();
  for (const key of ['1', '2', '1', '2']) await page.keyboard.press(key);
  await page.getByTestId('model-reset').click();
  assert.match(await page.getByTestId('manual-hint').textContent(), /Reset keeps your picks/);
  assert.deepEqual(await page.getByTestId('step-index').textContent(), 'step 0 / 4');
  await page.keyboard.press('End');
  assert.match(await page.getByTestId('model-outcome').textContent(), /1 of 2 increments counted — 1 lost/);
});
