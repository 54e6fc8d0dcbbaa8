// The semaphore: in the model one exchange per slot never lets more than the limit in, and
// reading then taking lets all eight in; on the GPU every invocation is accounted for and the
// count balances. Whether the limit held on the GPU is reported, not asserted: WGSL's relaxed
// atomics promise nothing about `inside` against `count`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('model: one exchange per slot keeps the limit; reading then taking lets all eight in', async () => {
  const page = await LessonPage.open(site, 'semaphore', '&threads=8&schedule=lockstep');
  // Five ticks in, thread 0 has won the exchange and entered: its lane says it is inside, the
  // losers' lanes do not.
  await page.step(5);
  assert.match(await page.text('scene-span-0'), /^inside/);
  assert.equal(await page.getByTestId('scene-span-1').count(), 0);
  await page.getByTestId('scene').screenshot({ path: screenshotPath('semaphore-inside') });
  await page.keyboard.press('End');
  const peak = Number(await page.text('model-peak'));
  assert.ok(peak >= 1 && peak <= 4, `peak ${peak}`);
  assert.equal(await page.text('model-count'), '4', 'every slot given back');
  assert.match(await page.text('model-outcome'), /within the limit of 4/);
  await page.getByTestId('variant-check-then-take').click();
  await page.keyboard.press('End');
  assert.equal(await page.text('model-peak'), '8', 'all eight read 4 and went in');
  assert.match(await page.text('model-outcome'), /more than the 4 the semaphore allows/);
  await page.getByTestId('variant-binary').click();
  await page.keyboard.press('End');
  assert.equal(await page.text('model-peak'), '1', 'a mutex: one at a time');
  assert.deepEqual(page.errors, []);
});

for (const [variant, invocations] of [['counting', 64], ['counting', 1024], ['binary', 1024], ['check-then-take', 1024]]) {
  test(`GPU, ${variant}, ${invocations} invocations: every invocation entered or gave up, and the count balanced`, async () => {
    const page = await LessonPage.open(site, 'semaphore', `&variant=${variant}&invocations=${invocations}&workgroup=64`);
    await waitForGpu(page);
    await page.getByTestId('gpu-run').click();
    await page.getByTestId('gpu-report').waitFor({ timeout: 120_000 });
    const verdict = page.getByTestId('gpu-verdict');
    assert.equal(await verdict.getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
    const [entered, gaveUp, peak, count] = await Promise.all(['gpu-entered', 'gpu-gave-up', 'gpu-peak', 'gpu-count'].map(async (id) => Number(await page.text(id))));
    assert.equal(entered + gaveUp, invocations);
    assert.equal(count, variant === 'binary' ? 1 : 4);
    assert.ok(peak >= 1 && peak <= entered, `peak ${peak} of ${entered}`);
    console.log(`# ${variant} ${invocations} on ${await page.getByTestId('adapter-name').textContent()}: entered ${entered}, gave up ${gaveUp}, ` +
      `peak ${peak}, over the limit ${await page.text('gpu-over')}, limit held ${await verdict.getAttribute('data-limit-held')}`);
    assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
    await page.getByTestId('gpu-report').screenshot({ path: screenshotPath(`semaphore-${variant}-${invocations}`) });
    assert.deepEqual(page.errors, []);
  });
}
