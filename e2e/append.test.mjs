// The append lesson: the count is exact and the filled slots are exactly the kept inputs, in
// the model under any schedule and from the real kernel, run after run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();
const LIMIT = 50;

/** The lesson's inputs, computed here independently: SplitMix64 of (i ^ 0xA99E17D0), mod 100. */
function inputValue(i) {
  const M = (1n << 64n) - 1n;
  let z = (BigInt(i) ^ 0xa99e17d0n) + 0x9e3779b97f4a7c15n & M;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
  z = z ^ (z >> 31n);
  return Number(z % 100n);
}

const kept = (n) => [...Array(n).keys()].map(inputValue).filter((v) => v < LIMIT);
const sorted = (xs) => [...xs].sort((a, b) => a - b);

test('model: inputs are the lesson\'s, and any schedule appends exactly the kept ones', async () => {
  const page = await LessonPage.open(site, 'append', '&threads=8&schedule=random&seed=5');
  for (let t = 0; t < 8; t++) assert.equal(Number(await page.text(`model-input[${t}]`)), inputValue(t));
  await page.keyboard.press('End');
  const want = kept(8);
  assert.equal(Number(await page.text('model-count')), want.length);
  const got = [];
  for (let s = 0; s < want.length; s++) got.push(Number(await page.text(`model-output[${s}]`)));
  assert.deepEqual(sorted(got), sorted(want));
  assert.match(await page.text('model-outcome'), new RegExp(`${want.length} of 8 values were below ${LIMIT}`));
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert.match(await page.text('narration'), /thread \d loads \d+ from input\[\d\]/);
  assert.deepEqual(page.errors, []);
});

test('GPU: twice, each time exactly the kept inputs in some order', async () => {
  const n = 8192;
  const page = await LessonPage.open(site, 'append', `&invocations=${n}&workgroup=64`);
  await waitForGpu(page);
  const want = sorted(kept(n));
  for (const round of [1, 2]) {
    await page.getByTestId('gpu-run').click();
    await page.waitForFunction(
      (round) => round === 1 ? !!document.querySelector('[data-testid=gpu-report]') : document.querySelector('[data-testid=gpu-order-change]')?.dataset.changed !== undefined,
      round,
      { timeout: 60_000 },
    );
    await page.waitForFunction(() => !document.querySelector('[data-testid=gpu-run]').disabled);
    assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
    assert.equal(Number(await page.text('gpu-observed')), want.length);
    const output = (await page.getByTestId('gpu-output').textContent()).split(',').map(Number);
    assert.deepEqual(sorted(output), want, `round ${round}: the kept inputs, each once`);
  }
  console.log(`# ${await page.getByTestId('adapter-name').textContent()}: ${await page.text('gpu-order-change')} In input order: ${await page.text('gpu-input-order')}`);
  assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('append-gpu') });
  assert.deepEqual(page.errors, []);
});
