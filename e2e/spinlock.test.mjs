// The spinlock: in the model a lock lets one thread in at a time and bounded spins give up;
// on the GPU every invocation is accounted for and the counter never exceeds the entries.
// Whether the lock excluded is reported, not asserted: WGSL does not promise it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('model: the lock lets everyone in one at a time or makes them give up; no lock loses updates', async () => {
  const page = await LessonPage.open(site, 'spinlock', '&threads=8&schedule=lockstep');
  await page.keyboard.press('End');
  const counter = Number(await page.text('model-counter'));
  const gaveUp = Number(await page.text('model-stats.gave_up'));
  assert.equal(counter + gaveUp, 8);
  assert.ok(gaveUp >= 1, 'in lockstep the waiters run out of tries');
  assert.match(await page.text('model-outcome'), /0 increment\(s\) lost/);
  await page.getByTestId('variant-no-lock').click();
  await page.keyboard.press('End');
  // Lockstep, the kernel's own steps: thread 0 (the first inside, with no overlap to count) is a
  // step ahead and stores 1 just before the seven others load it; they all store 2.
  assert.equal(await page.text('model-counter'), '2', 'seven lanes in lockstep load the same value');
  assert.match(await page.text('model-outcome'), /6 increment\(s\) lost/);
  assert.deepEqual(page.errors, []);
});

for (const variant of ['no-lock', 'spin-then-enter', 'enter-in-loop']) {
  test(`GPU, ${variant}: every invocation entered or gave up, and the counter is at most the entries`, async () => {
    const page = await LessonPage.open(site, 'spinlock', `&variant=${variant}&invocations=1024&workgroup=64`);
    await waitForGpu(page);
    await page.getByTestId('gpu-run').click();
    await page.getByTestId('gpu-report').waitFor({ timeout: 120_000 });
    assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
    const [entered, gaveUp, counter] = await Promise.all(['gpu-entered', 'gpu-gave-up', 'gpu-counter'].map(async (id) => Number(await page.text(id))));
    assert.equal(entered + gaveUp, 1024);
    assert.ok(counter >= 1 && counter <= entered, `${counter} of ${entered}`);
    if (variant === 'no-lock') assert.equal(gaveUp, 0);
    console.log(`# ${variant} on ${await page.getByTestId('adapter-name').textContent()}: entered ${entered}, gave up ${gaveUp}, ` +
      `counter ${counter}, overlaps ${await page.text('gpu-overlaps')}`);
    assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
    await page.getByTestId('gpu-report').screenshot({ path: screenshotPath(`spinlock-${variant}`) });
    assert.deepEqual(page.errors, []);
  });
}

test('a CUDA lock in the visibility model: without the fences the next holder reads stale data; with both, it cannot', async () => {
  const page = await LessonPage.open(site, 'spinlock');
  await page.showGpu();
  await page.getByTestId('method-unfenced-lock').click();
  const verdict = page.getByTestId('method-verdict');
  assert.equal(await verdict.getAttribute('data-stale-allowed'), 'true', await page.text('method-verdict'));
  assert.match(await page.text('method-verdict'), /T1 can hold the lock and still read the data from before/);
  // T0 writes x, then lets go (y = 1); T1 takes the lock (reads y = 1), then reads x = 0.
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-read-1-1').click();
  await page.getByTestId('vis-read-1-0').click();
  assert.equal(await page.getByTestId('vis-status').getAttribute('data-outcome'), 'r0=1 r1=0');
  await page.locator('#cuda-lock-heading').scrollIntoViewIfNeeded();
  await page.locator('.cuda-lock-panel').screenshot({ path: screenshotPath('spinlock-cuda-lock-unfenced') });
  for (const id of ['fenced-lock', 'acquire-release-lock']) {
    await page.getByTestId(`method-${id}`).click();
    assert.equal(await verdict.getAttribute('data-stale-allowed'), 'false', id);
  }
  await page.getByTestId('method-release-fence-only').click();
  assert.equal(await verdict.getAttribute('data-stale-allowed'), 'true', 'a fence on one side is not enough');
  assert.deepEqual(page.errors, []);
});
