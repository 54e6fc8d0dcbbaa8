// Subgroups: in the model, subgroupAdd gives each subgroup its own sum, inside an if only the
// kept values, and the ballot draws its mask as bits. On the GPU (SwiftShader: subgroups of 4)
// the page asks for the feature itself, reads the size back from the kernel, and every promise
// holds; stale neighbour reads and the last-warp reduction are counted, never asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

async function records(page, n = 8) {
  return Promise.all([...Array(n).keys()].map((i) => page.text(`model-records[${i}]`).then(Number)));
}

test('model: each subgroup gets its own sum; inside the if only the kept values; the ballot shows its bits', async () => {
  const page = await LessonPage.open(site, 'subgroups', '&schedule=serial');
  await page.toEnd();
  assert.deepEqual(await records(page), [9, 9, 9, 9, 22, 22, 22, 22]);
  assert.match(await page.text('model-outcome'), /own subgroup's sum/);
  await page.getByTestId('subgroup-8').click();
  await page.toEnd();
  assert.deepEqual(await records(page), [31, 31, 31, 31, 31, 31, 31, 31], 'one subgroup of eight');
  await page.getByTestId('subgroup-4').click();
  await page.getByTestId('variant-divergent').click();
  await page.toEnd();
  assert.deepEqual(await records(page), [0, 0, 4, 0, 20, 20, 0, 20]);
  await page.getByTestId('variant-ballot').click();
  await page.toEnd();
  assert.equal(await page.getByTestId('ballot-1').getAttribute('aria-label'), 'ballot mask 1011');
  assert.match(await page.text('model-outcome'), /4 values of 4 or more kept \(4 5 9 6\), with one atomicAdd per subgroup \(2 in all\)/);
  await page.locator('.model-panel').screenshot({ path: screenshotPath('subgroups-ballot') });
  assert.deepEqual(page.errors, []);
  const link = await LessonPage.open(site, 'subgroups', '&variant=butterfly&subgroup=8&schedule=lockstep');
  await link.toEnd();
  assert.deepEqual(await records(link), [31, 31, 31, 31, 31, 31, 31, 31]);
  const bad = await LessonPage.open(site, 'subgroups', '&subgroup=6');
  assert.match(await bad.text('param-error'), /4, 8 or 32 lanes/);
});

test('GPU: the size is read back, every promise holds, the folklore is counted', async () => {
  const page = await LessonPage.open(site, 'subgroups', '&invocations=4096&workgroup=64');
  await page.gpuReady();
  assert.equal(await page.getByTestId('no-subgroups').count(), 0, 'this Chromium offers subgroups');
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-verdict').waitFor({ timeout: 120_000 });
  const verdict = page.getByTestId('gpu-verdict');
  assert.equal(await verdict.getAttribute('data-promise-held'), 'true', await page.text('gpu-verdict'));
  const size = Number(await page.getByTestId('gpu-subgroup-size').getAttribute('data-raw'));
  assert.ok([4, 8, 16, 32, 64, 128].includes(size), `size ${size}`);
  assert.equal(await page.text('gpu-add-wrong'), '0 of 4096');
  assert.equal(await page.text('gpu-butterfly-wrong'), '0 of 4096');
  const reductions = await page.getByTestId('gpu-reductions').locator('tbody tr').allTextContents();
  assert.equal(reductions.length, 3);
  assert.match(reductions[0], /^tree, a barrier per level0 of 64/);
  assert.match(reductions[1], /^subgroupAdd, one barrier0 of 64/);
  const compactions = await page.getByTestId('gpu-compactions').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(compactions[0][4], 'yes');
  assert.equal(compactions[1][4], 'yes');
  assert.equal(Number(compactions[0][2]), 4096 / size, 'one atomicAdd per subgroup');
  assert.equal(Number(compactions[1][2]), Number(compactions[1][1]), 'one per kept value');
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('subgroups-gpu') });
  console.log(`# on ${await page.getByTestId('adapter-name').textContent()}: subgroups of ${size}; ` +
    `neighbours ${(await page.getByTestId('gpu-neighbours').locator('tbody tr').allTextContents()).join(' | ')}; last warp ${reductions[2]}`);
  assert.deepEqual(page.errors, []);
});
