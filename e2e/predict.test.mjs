// Predict, then run: the reader writes down a guess before a GPU run, and the run's result is
// set beside it. Asserts only what the page must say about the guess and the GPU's own number,
// never what the GPU will do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('race: the predicted racy count is set beside the count the GPU gave', async () => {
  const page = await LessonPage.open(site, 'race', '&variant=racy&invocations=1024&workgroup=64');
  await page.showGpu();
  const input = page.getByTestId('predict-count-input');
  await input.fill('-3');
  assert.match(await page.getByTestId('predict-count').getByRole('alert').textContent(), /whole number from 0 to/);
  await input.fill('100');
  assert.equal(await page.getByTestId('predict-count').getByRole('alert').count(), 0);
  await page.runOnGpu();
  const observed = await page.number('gpu-observed');
  const off = Math.abs(observed - 100);
  assert.equal(await page.text('predict-count-result'),
    off === 0 ? `You predicted 100; your GPU gave ${observed}: exactly right.` : `You predicted 100; your GPU gave ${observed}: off by ${off}.`);
  // A guess changed afterwards does not rewrite the prediction this run was set against.
  await input.fill('7');
  assert.match(await page.text('predict-count-result'), /^You predicted 100;/);
  page.assertNoConsoleErrors();
});

test('barrier: the predicted number of stale reads, against the GPU’s count', async () => {
  const page = await LessonPage.open(site, 'barrier', '&variant=without&invocations=1024&workgroup=64');
  await page.showGpu();
  await page.getByTestId('predict-stale-input').fill('0');
  await page.runOnGpu();
  const stale = await page.number('gpu-stale');
  assert.match(await page.text('predict-stale-result'), new RegExp(`^You predicted 0; your GPU gave ${stale}: (exactly right|off by ${stale})\\.$`));
  page.assertNoConsoleErrors();
});

test('message passing: a yes or no on the weak outcome, against what the run counted', async () => {
  const page = await LessonPage.open(site, 'message-passing', '&invocations=4096&workgroup=64');
  await page.showGpu();
  assert.equal(await page.text('predict-weak-result'), '');
  await page.getByTestId('predict-weak-input').selectOption('yes');
  await page.runOnGpu();
  const relaxed = await page.getByTestId('litmus-table').locator('tbody tr').nth(0).locator('td').allTextContents();
  const weak = Number(relaxed[4]);
  assert.equal(await page.text('predict-weak-result'),
    weak > 0 ? `You said yes; it did (${weak} times): right.` : 'You said yes; it did not: not this time.');
  page.assertNoConsoleErrors();
});
