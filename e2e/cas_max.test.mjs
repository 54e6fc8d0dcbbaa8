// The compare-exchange maximum: the model's threads retry when another swapped first, and
// the real kernel's result is exactly the true maximum, bits and all, for both input sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

async function retriesInModel(page, n) {
  let sum = 0;
  for (let t = 0; t < n; t++) sum += Number(await page.text(`model-retries[${t}]`));
  return sum;
}

test('model: lockstep makes threads retry, serial does not, and best is the largest input', async () => {
  const page = await LessonPage.open(site, 'cas-max', '&threads=4');
  await page.keyboard.press('End');
  const inputs = [];
  for (let t = 0; t < 4; t++) inputs.push(Number(await page.text(`model-input[${t}]`)));
  assert.equal(Number(await page.text('model-best')), Math.max(...inputs));
  assert.ok((await retriesInModel(page, 4)) >= 1, 'in lockstep every thread but the first swap fails at least once');
  // Back to the start, then a new schedule from there: the old run's future is dropped.
  await page.getByTestId('model-reset').click();
  await page.getByTestId('schedule').selectOption('serial');
  await page.getByTestId('model-step').click();
  await page.keyboard.press('End');
  assert.equal(await retriesInModel(page, 4), 0, 'one thread at a time: no retries');
  assert.match(await page.text('model-outcome'), /best is -?\d+\.\d+, the largest input; the threads retried 0 time/);
  await page.getByTestId('variant-non-positive').click();
  assert.ok(Number(await page.text('model-input[0]')) <= 0);
  assert.deepEqual(page.errors, []);
});

/** The model's inputs, as the scene writes them: one a thread. */
async function modelInputs(page) {
  return page.locator('[data-testid=scene] [data-testid^="model-input["]').allTextContents();
}

test('model: the "−0.0 and +0.0" way has both zeros among its inputs at the default thread count and at every other', async () => {
  // As a reader picks the way: no thread count in the link, the lesson's default.
  const page = await LessonPage.open(site, 'cas-max', '&variant=non-positive&schedule=serial');
  const inputs = await modelInputs(page);
  assert.equal(inputs.length, Number(await page.getByTestId('model-threads').inputValue()), 'one input a thread');
  assert.ok(inputs.includes('-0.0') && inputs.includes('0.0'), `inputs at the default ${inputs.length} threads: ${inputs.join(', ')}`);
  // One at a time: −0.0 is in best first, and only above()'s rule lets +0.0 replace it.
  await page.keyboard.press('End');
  assert.equal(await page.text('model-best'), '0.0');
  assert.deepEqual(page.errors, []);
  for (const threads of [2, 8, 16]) {
    const other = await LessonPage.open(site, 'cas-max', `&variant=non-positive&threads=${threads}`);
    const theirs = await modelInputs(other);
    assert.equal(theirs.length, threads);
    assert.ok(theirs.includes('-0.0') && theirs.includes('0.0'), `${threads} threads: ${theirs.join(', ')}`);
    assert.deepEqual(other.errors, []);
  }
});

test('model: the two zeros are told apart, and +0.0 wins whatever the order', async () => {
  // Four threads: thread 0 brings −0.0 and thread 1 +0.0, and the model writes each so.
  let page = await LessonPage.open(site, 'cas-max', '&threads=4&variant=non-positive&schedule=round-robin');
  await page.keyboard.press('End');
  assert.equal(await page.text('model-input[0]'), '-0.0');
  assert.equal(await page.text('model-input[1]'), '0.0');
  assert.equal(await page.text('model-best'), '0.0');
  // Twelve: threads 1 and 11 bring +0.0, which above() ranks over the −0.0 of threads 0, 3 and 10.
  for (const schedule of ['lockstep', 'serial', 'random']) {
    page = await LessonPage.open(site, 'cas-max', `&threads=12&variant=non-positive&schedule=${schedule}`);
    await page.keyboard.press('End');
    assert.equal(await page.text('model-input[11]'), '0.0');
    assert.equal(await page.text('model-best'), '0.0', schedule);
    assert.match(await page.text('model-outcome'), /best is 0\.0, the largest input/);
    assert.deepEqual(page.errors, []);
  }
  await page.getByTestId('scene').screenshot({ path: screenshotPath('cas-max-zeros') });
});

for (const [variant, bits] of [['mixed', null], ['non-positive', '0x00000000'], ['with-nan', null]]) {
  test(`GPU, ${variant} inputs: exactly the true maximum, no give-ups`, async () => {
    const page = await LessonPage.open(site, 'cas-max', `&variant=${variant}&invocations=4096&workgroup=64`);
    await waitForGpu(page);
    await page.getByTestId('gpu-run').click();
    await page.getByTestId('gpu-report').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
    assert.equal(await page.text('gpu-observed'), await page.text('gpu-expected'));
    if (bits) assert.equal(await page.getByTestId('gpu-observed').getAttribute('data-raw'), bits, '+0.0, not -0.0');
    assert.equal(await page.text('gpu-gave-up'), '0');
    const retries = (await page.getByTestId('gpu-retry-list').textContent()).split(',').map(Number);
    assert.equal(retries.length, 4096);
    assert.equal(retries.reduce((a, b) => a + b, 0), Number(await page.text('gpu-retries')));
    console.log(`# ${variant} on ${await page.getByTestId('adapter-name').textContent()}: ${await page.text('gpu-retries')} retries, most ${await page.text('gpu-most-retries')}`);
    assert.match(await page.getByTestId('measured-h100').first().locator('summary').textContent(), /H100/);
    assert.equal(await page.getByTestId('measured-h100').count(), 2, 'the maximum and the float sum');
    await page.getByTestId('gpu-report').screenshot({ path: screenshotPath(`cas-max-${variant}`) });
    assert.deepEqual(page.errors, []);
  });
}

test('float sum: serial leaves 2^24 (every one rounds away); on the GPU the additions form one chain, and an oversized sum is refused', async () => {
  const page = await LessonPage.open(site, 'cas-max', '&variant=float-sum&threads=4&schedule=serial');
  await page.toEnd();
  assert.equal(await page.text('model-total'), '16777216.0');
  assert.match(await page.text('model-outcome'), /total is 16777216\.0, the sum of the inputs is 16777219.*16777216\.0 goes first: every 1\.0 after it rounds away/);
  await waitForGpu(page);
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-report').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  const [before, of] = (await page.text('gpu-ones-before')).split(' of ').map(Number);
  assert.equal(of, 1023);
  assert.ok(before >= 0 && before <= 1023);
  assert.equal(await page.text('gpu-sum-input-order'), '16777216.0');
  assert.equal(await page.text('gpu-sum-exact'), '16778239');
  console.log(`# float sum on ${await page.getByTestId('adapter-name').textContent()}: total ${await page.text('gpu-sum-total')}, ${before} of 1023 ones first`);
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('cas-max-float-sum') });
  await page.getByTestId('gpu-invocations').fill('100000');
  await page.runOnGpu();
  assert.match(await page.text('gpu-error'), /at most 65536 invocations, not 100000/);
  assert.deepEqual(page.errors, []);
});
