// Producer and consumer: in the model no schedule reads stale data, and a consumer that runs
// before its producer gives up; on the GPU every consumer is accounted for, and where WGSL
// promises the handoff (one workgroup with the barrier, two dispatches) it is checked. CUDA's
// methods in the visibility model: the reader can make the stale read happen without a fence,
// and cannot with release and acquire.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('model: serially every consumer but the last gives up; between two dispatches nobody does', async () => {
  const page = await LessonPage.open(site, 'producer-consumer', '&threads=4&schedule=serial');
  // Thread 0 has written its message and flag and is loading its neighbour's flag.
  await page.step(5);
  assert.match(await page.text('scene-span-0'), /^waiting/);
  await page.getByTestId('scene').screenshot({ path: screenshotPath('producer-consumer-waiting') });
  await page.toEnd();
  assert.equal(await page.text('model-gave_up'), '3');
  assert.equal(await page.text('model-stale'), '0');
  assert.match(await page.text('model-outcome'), /3 of 4 consumer\(s\) gave up/);
  await page.getByTestId('variant-two-dispatches').click();
  await page.toEnd();
  assert.equal(await page.text('model-gave_up'), '0');
  assert.match(await page.text('model-outcome'), /all 4 consumers saw their flag and read 42/);
  assert.deepEqual(page.errors, []);
});

for (const variant of ['relaxed', 'storage-barrier', 'same-workgroup', 'two-dispatches']) {
  test(`GPU, ${variant}: every consumer read or gave up, and what WGSL promises held`, async () => {
    const invocations = 1024;
    const page = await LessonPage.open(site, 'producer-consumer', `&variant=${variant}&invocations=${invocations}&workgroup=64`);
    await waitForGpu(page);
    await page.getByTestId('gpu-run').click();
    await page.getByTestId('gpu-report').waitFor({ timeout: 120_000 });
    const verdict = page.getByTestId('gpu-verdict');
    assert.equal(await verdict.getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
    assert.equal(await verdict.getAttribute('data-promise-held'), 'true', await page.text('gpu-verdict'));
    const [consumed, stale, gaveUp] = await Promise.all(['gpu-consumed', 'gpu-stale', 'gpu-gave-up'].map((id) => page.number(id)));
    assert.equal(consumed + gaveUp, invocations);
    assert.ok(stale <= consumed);
    if (variant === 'same-workgroup' || variant === 'two-dispatches') assert.equal(stale, 0, 'promised');
    if (variant === 'two-dispatches') assert.equal(consumed, invocations, 'every flag was set by the first dispatch');
    console.log(`# ${variant} ${invocations} on ${await page.getByTestId('adapter-name').textContent()}: read ${consumed}, stale ${stale}, gave up ${gaveUp}, longest wait ${await page.text('gpu-longest-wait')}`);
    assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
    await page.getByTestId('gpu-report').screenshot({ path: screenshotPath(`producer-consumer-${variant}`) });
    assert.deepEqual(page.errors, []);
  });
}

test("CUDA's methods: without a fence the reader can make the stale read; with release and acquire not", async () => {
  const page = await LessonPage.open(site, 'producer-consumer');
  await page.showGpu();
  await page.getByTestId('method-no-fence').click();
  const verdict = page.getByTestId('method-verdict');
  assert.equal(await verdict.getAttribute('data-stale-allowed'), 'true', await page.text('method-verdict'));
  // T0 writes x, then y; T1 reads y = 1 (the newest write), then x = 0 (the initial, stale one).
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-read-1-1').click();
  await page.getByTestId('vis-read-1-0').click();
  const status = page.getByTestId('vis-status');
  assert.equal(await status.getAttribute('data-outcome'), 'r0=1 r1=0');
  assert.equal(await status.getAttribute('data-weak'), 'true');
  assert.equal(await page.getByTestId('vis-challenge').getAttribute('data-reached'), 'true');
  await page.locator('#cuda-methods-heading').scrollIntoViewIfNeeded();
  await page.locator('.cuda-methods-panel').screenshot({ path: screenshotPath('producer-consumer-no-fence') });

  await page.getByTestId('method-release-acquire').click();
  assert.equal(await verdict.getAttribute('data-stale-allowed'), 'false');
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-read-1-1').click();
  // Having read the release, T1's view of x has moved past the initial write: it is not offered.
  assert.equal(await page.getByTestId('vis-read-1-0').count(), 0);
  assert.equal(await page.getByTestId('vis-read-1-1').count(), 1);
  assert.match(await page.text('vis-narration'), /view moved on/);
  await page.locator('.cuda-methods-panel').screenshot({ path: screenshotPath('producer-consumer-release-acquire') });
  assert.deepEqual(page.errors, []);
});
