// The histogram lesson: in the model, lockstep loses counts with a plain += and the atomic
// ways keep them all; on the GPU both atomic ways equal the CPU's histogram and are timed, the
// plain one never counts more than there are, and the sweep charts all three over 1 … 256 bins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('model: plain += loses counts in lockstep; atomicAdd and private bins keep them', async () => {
  const page = await LessonPage.open(site, 'histogram', '&threads=6');
  await page.keyboard.press('End');
  assert.equal(await page.text('model-outcome'), 'Finished: the bins hold [1, 1, 1, 0] but should hold [3, 2, 1, 0]: 3 count(s) lost.');
  for (const variant of ['atomic', 'private']) {
    await page.getByTestId(`variant-${variant}`).click();
    await page.keyboard.press('End');
    assert.equal(await page.text('model-outcome'), 'Finished: the bins hold [3, 2, 1, 0], all 6 values counted.', variant);
  }
  assert.deepEqual(page.errors, []);
});

test('GPU: the atomic ways equal the CPU histogram, each timed; the plain one is counted', async () => {
  const page = await LessonPage.open(site, 'histogram', '&invocations=262144&workgroup=256');
  await page.showGpu();
  await page.getByTestId('histogram-distinct').selectOption('4');
  await page.runOnGpu();
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  const rows = await page.getByTestId('histogram-table').locator('tbody tr').allTextContents();
  assert.equal(rows.length, 3);
  assert.match(rows[1], /5242880 of 5242880.*yes/);
  assert.match(rows[2], /5242880 of 5242880.*yes/);
  console.log(`# histogram 262144 values, 4 bins on ${await page.getByTestId('adapter-name').textContent()}: ${rows.join(' | ')}`);
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('histogram-gpu') });
  assert.deepEqual(page.errors, []);
});

test('GPU sweep: a chart and a table of all three over 1 … 256 bins, and the H100 sweep beside it', async () => {
  const page = await LessonPage.open(site, 'histogram', '&invocations=65536&workgroup=256');
  await waitForGpu(page);
  await page.getByTestId('sweep-run').click();
  await page.getByTestId('sweep-report').waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('sweep-verdict').getAttribute('data-ok'), 'true');
  assert.equal(await page.getByTestId('sweep-table').locator('tbody tr').count(), 9);
  assert.equal(await page.getByTestId('sweep-chart').locator('polyline').count(), 3);
  const table = await page.getByTestId('sweep-table').locator('tbody tr').allTextContents();
  console.log(`# sweep on ${await page.getByTestId('adapter-name').textContent()}: ${table.join(' | ')}`);
  await page.getByTestId('measured-h100').locator('summary').click();
  assert.equal(await page.getByTestId('measured-histogram-chart').count(), 2);
  await page.locator('.gpu-panel').screenshot({ path: screenshotPath('histogram-sweep') });
  assert.deepEqual(page.errors, []);
});

test('GPU size sweep: all three timed at 4,096 … 1,048,576 values, atomic ways exact at each', async () => {
  const page = await LessonPage.open(site, 'histogram', '&workgroup=256');
  await page.showGpu();
  await page.getByTestId('histogram-distinct').selectOption('16');
  await waitForGpu(page);
  await page.getByTestId('size-sweep-run').click();
  await page.getByTestId('size-sweep-report').waitFor({ timeout: 180_000 });
  assert.equal(await page.getByTestId('size-sweep-verdict').getAttribute('data-ok'), 'true');
  const rows = await page.getByTestId('size-sweep-table').locator('tbody tr').allTextContents();
  const firsts = await page.getByTestId('size-sweep-table').locator('tbody tr td:first-child').allTextContents();
  assert.deepEqual(firsts, ['4096', '16384', '65536', '262144', '1048576']);
  assert.equal(await page.getByTestId('size-sweep-chart').locator('polyline').count(), 3);
  assert.match(await page.getByTestId('size-sweep-chart').locator('figcaption').textContent(), /^16 bin\(s\) hit, workgroups of 256/);
  console.log(`# size sweep, 16 bins, on ${await page.getByTestId('adapter-name').textContent()}: ${rows.join(' | ')}`);
  await page.getByTestId('size-sweep-report').screenshot({ path: screenshotPath('histogram-size-sweep') });
  assert.deepEqual(page.errors, []);
});
