// The reduction: the model walks the seed's table to 31, the GPU's traced tree gives the same
// table, and a large array sums right by the tree and by atomicAdd, both timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('model and GPU: 3, 1, 4, 1, 5, 9, 2, 6 → 8, 10, 6, 7 → 14, 17 → 31', async () => {
  const page = await LessonPage.open(site, 'reduction', '');
  await page.gpuReady();
  await page.keyboard.press('End');
  assert.equal(await page.text('model-cells[0]'), '31');
  assert.match(await page.text('model-outcome'), /cells\[0\] = 31, the sum of all 8 values, in 3 steps/);
  await page.getByTestId('trace-run').click();
  await page.getByTestId('trace-verdict').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('trace-verdict').getAttribute('data-ok'), 'true');
  const rows = await page.getByTestId('trace-table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => r.slice(1, 5).join(',')), ['3,1,4,1', '8,10,6,7', '14,17,6,7', '31,17,6,7']);
  assert.deepEqual(page.errors, []);
});

test('model with 6 threads: the tree drops a value, and says so', async () => {
  const page = await LessonPage.open(site, 'reduction', '&threads=6');
  await page.gpuReady();
  await page.keyboard.press('End');
  assert.match(await page.text('model-outcome'), /needs a power of two/);
});

test('GPU: 65,536 values sum right three ways (tree, atomicAdd, tree then one atomicAdd per workgroup), each timed', async () => {
  const page = await LessonPage.open(site, 'reduction', '');
  await page.gpuReady();
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-report').waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  assert.equal(await page.text('gpu-tree-sum'), await page.text('gpu-expected'));
  console.log(`# on ${await page.getByTestId('adapter-name').textContent()}: tree ${await page.text('gpu-tree-ms')}, ` +
    `atomicAdd ${await page.text('gpu-atomic-ms')}, ratio ${await page.text('gpu-ratio')}, tree then atomicAdd ${await page.text('gpu-tree-atomic-ms')}`);
  assert.match(await page.text('gpu-verdict'), /All three sums are right/);
  await page.locator('.gpu-panel').screenshot({ path: screenshotPath('reduction-gpu') });
  assert.deepEqual(page.errors, []);
});
