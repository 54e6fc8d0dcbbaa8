// The reduction: the model walks the seed's table to 31, the GPU's traced tree gives the same
// table, and a large array sums right by the tree and by atomicAdd, both timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage, screenshotPath } from './support/browser.mjs';

const site = useSite();
const text = async (page, id) => (await page.getByTestId(id).textContent()).trim();

async function open(query) {
  const page = await openPage(site.browser, `${site.url}?lesson=reduction${query}`);
  await page.getByTestId('model-player').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid=gpu-status]')?.dataset.state === 'ready');
  return page;
}

test('model and GPU: 3, 1, 4, 1, 5, 9, 2, 6 → 8, 10, 6, 7 → 14, 17 → 31', async () => {
  const page = await open('');
  await page.keyboard.press('End');
  assert.equal(await text(page, 'model-cells[0]'), '31');
  assert.match(await text(page, 'model-outcome'), /cells\[0\] = 31, the sum of all 8 values, in 3 steps/);
  await page.getByTestId('trace-run').click();
  await page.getByTestId('trace-verdict').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('trace-verdict').getAttribute('data-ok'), 'true');
  const rows = await page.getByTestId('trace-table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => r.slice(1, 5).join(',')), ['3,1,4,1', '8,10,6,7', '14,17,6,7', '31,17,6,7']);
  assert.deepEqual(page.errors, []);
});

test('model with 6 threads: the tree drops a value, and says so', async () => {
  const page = await open('&threads=6');
  await page.keyboard.press('End');
  assert.match(await text(page, 'model-outcome'), /needs a power of two/);
});

test('GPU: 65,536 values sum right by the tree and by atomicAdd, both timed', async () => {
  const page = await open('');
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-report').waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await text(page, 'gpu-verdict'));
  assert.equal(await text(page, 'gpu-tree-sum'), await text(page, 'gpu-expected'));
  console.log(`# on ${await page.getByTestId('adapter-name').textContent()}: tree ${await text(page, 'gpu-tree-ms')}, ` +
    `atomicAdd ${await text(page, 'gpu-atomic-ms')}, ratio ${await text(page, 'gpu-ratio')}`);
  await page.locator('.gpu-panel').screenshot({ path: screenshotPath('reduction-gpu') });
  assert.deepEqual(page.errors, []);
});
