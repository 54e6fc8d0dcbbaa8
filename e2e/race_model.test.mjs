// The model half of the race lesson, driven by mouse and keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { RacePage } from './support/race_page.mjs';

const site = useSite();

test('mouse: step, back, scrub and reset in lockstep', async () => {
  // The kernel's two steps per thread, its load and its store; in lockstep all four load, then
  // all four store.
  const lesson = await RacePage.open(site.browser, site.url, '&threads=4');
  assert.deepEqual(await lesson.stepIndex(), [0, 2]);
  await lesson.testId('model-step').click();
  assert.deepEqual(await lesson.stepIndex(), [1, 2]);
  assert.match(await lesson.text('narration'), /thread 0 loads 0 from counter/);
  await lesson.testId('model-step').click();
  assert.equal(await lesson.number('model-counter'), 1, 'lockstep: three of four updates lost');
  assert.match(await lesson.text('model-outcome'), /1 of 4 increments counted — 3 lost/);
  await lesson.testId('model-back').click();
  assert.equal(await lesson.number('model-counter'), 0);
  await lesson.testId('model-scrub').fill('2');
  assert.equal(await lesson.number('model-counter'), 1);
  await lesson.testId('model-reset').click();
  assert.deepEqual(await lesson.stepIndex(), [0, 2]);
  lesson.assertNoConsoleErrors();
});

test('keyboard: arrows step, End finishes, Home resets; the code panel follows', async () => {
  const lesson = await RacePage.open(site.browser, site.url, '&threads=3&schedule=serial');
  const { page } = lesson;
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await lesson.stepIndex(), [1, 6]);
  // Thread 0 has loaded: it stands on its store, the add (its own register's) taken with it.
  const current = await page.locator('.code-line.current .text').allTextContents();
  assert.ok(current.some((l) => l.includes('atomicStore(&counter, value)')), current.join('|'));
  await page.keyboard.press('End');
  assert.equal(await lesson.number('model-counter'), 3, 'serial: nothing lost');
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await lesson.stepIndex(), [5, 6]);
  await page.keyboard.press('Home');
  assert.deepEqual(await lesson.stepIndex(), [0, 6]);
  await page.keyboard.press('Space');
  await page.waitForFunction(() => /step [1-9] /.test(document.querySelector('[data-testid=step-index]').textContent));
  await page.keyboard.press('Space');
  lesson.assertNoConsoleErrors();
});

test('manual schedule: the reader loses an update by hand', async () => {
  const lesson = await RacePage.open(site.browser, site.url, '&threads=2&schedule=manual');
  const { page } = lesson;
  await page.keyboard.press('1'); // t0 loads 0
  await page.keyboard.press('2'); // t1 loads 0
  await lesson.testId('step-thread-0').click(); // t0 stores 1
  await page.keyboard.press('2'); // t1 stores 1 over it
  assert.equal(await lesson.number('model-counter'), 1);
  assert.match(await lesson.text('model-outcome'), /1 of 2 increments counted — 1 lost/);
  await lesson.page.screenshot({ path: screenshotPath('race-manual'), fullPage: true });
  lesson.assertNoConsoleErrors();
});

test('the atomic toggle changes the model and the kernel together', async () => {
  const lesson = await RacePage.open(site.browser, site.url, '&threads=4');
  await lesson.chooseVariant('atomic');
  assert.match(await lesson.testId('code-view').textContent(), /race_atomic\.wgsl/);
  await lesson.page.keyboard.press('End');
  assert.equal(await lesson.number('model-counter'), 4);
  await lesson.chooseSchedule('random');
  await lesson.page.keyboard.press('End');
  assert.equal(await lesson.number('model-counter'), 4);
  lesson.assertNoConsoleErrors();
});

test('bad URL values are named in a message and the lesson still works', async () => {
  const lesson = await RacePage.open(site.browser, site.url, '&threads=99&schedule=%3Cb%3Ex%3C/b%3E&variant=fast');
  const message = await lesson.text('param-error');
  assert.match(message, /threads="99" was ignored/);
  assert.match(message, /schedule="<b>x<\/b>" was ignored/);
  assert.equal(await lesson.page.locator('.notice b').count(), 0, 'values are text, never markup');
  await lesson.testId('model-step').click();
  assert.deepEqual(await lesson.stepIndex(), [1, 2]);
  lesson.assertNoConsoleErrors();
});
