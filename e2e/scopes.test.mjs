// Scopes: in the model a barrier within the workgroup lets nobody read early and, with the
// neighbour in the next workgroup, a serial schedule reads it unwritten; on the GPU every read
// is counted and storageBarrier() within a workgroup is checked to be fresh. The scope tree
// marks the level a release reaches, and the visibility model lets the reader make the stale
// read at workgroup scope across workgroups and not at device scope.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('model: the barrier holds serial threads back; across workgroups nothing does', async () => {
  const page = await LessonPage.open(site, 'scopes', '&threads=4&schedule=serial');
  await page.toEnd();
  assert.equal(await page.text('model-stale'), '0');
  await page.getByTestId('variant-storage-barrier-across').click();
  await page.toEnd();
  assert.equal(await page.text('model-stale'), '3');
  assert.match(await page.text('model-outcome'), /3 of 4 thread\(s\) read their neighbour's cell before it was written/);
  assert.deepEqual(page.errors, []);
});

for (const variant of ['storage-barrier', 'workgroup-barrier', 'storage-barrier-across', 'workgroup-barrier-across']) {
  test(`GPU, ${variant}: every read counted, and what WGSL promises held`, async () => {
    const invocations = 1024;
    const page = await LessonPage.open(site, 'scopes', `&variant=${variant}&invocations=${invocations}&workgroup=64`);
    await waitForGpu(page);
    await page.getByTestId('gpu-run').click();
    await page.getByTestId('gpu-report').waitFor({ timeout: 120_000 });
    const verdict = page.getByTestId('gpu-verdict');
    assert.equal(await verdict.getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
    assert.equal(await verdict.getAttribute('data-promise-held'), 'true', await page.text('gpu-verdict'));
    const [fresh, stale] = await Promise.all(['gpu-fresh', 'gpu-stale'].map((id) => page.number(id)));
    assert.equal(fresh + stale, invocations);
    if (variant === 'storage-barrier') assert.equal(stale, 0, 'promised');
    console.log(`# ${variant} ${invocations} on ${await page.getByTestId('adapter-name').textContent()}: fresh ${fresh}, stale ${stale}`);
    assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
    await page.getByTestId('gpu-report').screenshot({ path: screenshotPath(`scopes-${variant}`) });
    assert.deepEqual(page.errors, []);
  });
}

test('the scope tree marks what a release reaches; workgroup scope across workgroups lets the stale read through', async () => {
  const page = await LessonPage.open(site, 'scopes');
  await page.showGpu();
  const tree = page.getByTestId('scope-tree');
  await tree.waitFor();
  // Workgroup scope, consumer in workgroup 1: the release reaches workgroup 0 only.
  assert.equal(await tree.getAttribute('data-scope'), 'workgroup');
  assert.equal(await tree.getAttribute('data-covers'), 'false');
  assert.match(await page.getByTestId('scope-workgroup-0').getAttribute('class'), /\breach\b/);
  assert.doesNotMatch(await page.getByTestId('scope-workgroup-1').getAttribute('class'), /\breach\b/);
  assert.equal(await page.getByTestId('scope-workgroup-1').getByTestId('scope-thread-T1').count(), 1);
  assert.equal(await page.getByTestId('method-verdict').getAttribute('data-stale-allowed'), 'true');
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-read-1-1').click();
  await page.getByTestId('vis-read-1-0').click();
  assert.equal(await page.getByTestId('vis-status').getAttribute('data-outcome'), 'r0=1 r1=0');
  await page.locator('#scope-tree-heading').scrollIntoViewIfNeeded();
  await page.locator('.scope-tree-panel').screenshot({ path: screenshotPath('scopes-tree-workgroup-across') });

  // Device scope: the whole device is marked, and the stale read cannot be made.
  await page.getByTestId('method-device-across').click();
  assert.equal(await tree.getAttribute('data-covers'), 'true');
  assert.equal(await page.getByTestId('method-verdict').getAttribute('data-stale-allowed'), 'false');
  // Workgroup scope with both threads in workgroup 0: covered, and forbidden too.
  await page.getByTestId('method-workgroup-within').click();
  assert.equal(await tree.getAttribute('data-covers'), 'true');
  assert.equal(await page.getByTestId('scope-workgroup-0').getByTestId('scope-thread-T1').count(), 1);
  assert.equal(await page.getByTestId('method-verdict').getAttribute('data-stale-allowed'), 'false');
  await page.locator('.scope-tree-panel').screenshot({ path: screenshotPath('scopes-tree-workgroup-within') });
  assert.deepEqual(page.errors, []);
});
