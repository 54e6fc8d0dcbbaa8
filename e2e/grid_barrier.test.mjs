// The grid barrier: in the model, with a slot for every workgroup everyone passes in lockstep,
// and with two slots the spinning workgroups hold them from the rest until their spin gives
// up; two dispatches never wait. On the GPU, a sweep of grid sizes accounts for every
// workgroup, and two dispatches keep their promise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('model: two slots leave the others waiting for one; every slot for everyone, nobody gives up', async () => {
  const page = await LessonPage.open(site, 'grid-barrier', '&variant=two-slots&threads=4&schedule=lockstep');
  // Early on, workgroups 2 and 3 wait for a slot while the first has taken one.
  await page.step(8);
  assert.match(await page.text('scene-span-3'), /^no slot yet/);
  assert.match(await page.text('scene-span-0'), /^spinning/);
  await page.getByTestId('scene').screenshot({ path: screenshotPath('grid-barrier-slots') });
  await page.toEnd();
  assert.ok(Number(await page.text('model-gave_up')) >= 2, await page.text('model-outcome'));
  assert.match(await page.text('model-outcome'), /gave up spinning/);
  await page.getByTestId('variant-resident').click();
  await page.toEnd();
  assert.equal(await page.text('model-gave_up'), '0');
  await page.getByTestId('variant-two-dispatches').click();
  await page.toEnd();
  assert.equal(await page.text('model-gave_up'), '0');
  assert.match(await page.text('model-outcome'), /first dispatch's end between/);
  assert.deepEqual(page.errors, []);
});

test('GPU: a sweep of 1 to 64 workgroups accounts for every workgroup; two dispatches always pass', async () => {
  const page = await LessonPage.open(site, 'grid-barrier', '&invocations=4096&workgroup=64');
  await waitForGpu(page);
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-verdict').waitFor({ timeout: 120_000 });
  const verdict = page.getByTestId('gpu-verdict');
  assert.equal(await verdict.getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  assert.equal(await verdict.getAttribute('data-promise-held'), 'true', await page.text('gpu-verdict'));
  const rows = await page.getByTestId('gpu-sweep').locator('tbody tr').allTextContents();
  assert.equal(rows.length, 8, rows.join('\n'));
  console.log(`# sweep on ${await page.getByTestId('adapter-name').textContent()}: first give-up at ${await verdict.getAttribute('data-first-give-up') || 'none'}\n# ${rows.join('\n# ')}`);
  assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('grid-barrier-sweep') });
  assert.deepEqual(page.errors, []);
});
