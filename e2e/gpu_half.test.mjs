// A lesson page opens with its model and fetches its GPU half (wgpu, the kernels, the GPU
// panels) only as the reader nears the GPU panel: what `scripts/bench.sh` counts as a page's
// initial transfer leaves it out, and a reader who never scrolls there never downloads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { closePage, openPage, showGpuPanel, waitForGpu, waitForWarmGpu } from './support/browser.mjs';

const site = useSite();

for (const viewport of [{ width: 1280, height: 720 }, { width: 390, height: 844 }]) {
  test(`at ${viewport.width}×${viewport.height}: the model first, the GPU half on the way to its panel`, async () => {
    const page = await openPage(site.browser, `${site.url}?lesson=race`, { viewport });
    const fetched = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await page.getByTestId('model-player').waitFor();
    await page.waitForLoadState('networkidle');
    assert.ok(!fetched.some((f) => /split_gpu_half/.test(f)), `fetched at open: ${fetched.join(' ')}`);
    assert.equal(await page.getByTestId('gpu-status').getAttribute('data-state'), 'waiting');
    assert.match(await page.getByTestId('gpu-status').textContent(), /as you reach this panel/);
    // The model works without it.
    await page.getByTestId('model-step').click();
    assert.match(await page.getByTestId('step-index').textContent(), /step 1 \//);

    await showGpuPanel(page);
    await waitForGpu(page);
    assert.ok(fetched.some((f) => /split_gpu_half/.test(f)), `fetched after scrolling: ${fetched.join(' ')}`);
    await page.getByTestId('gpu-run').click();
    await page.getByTestId('gpu-report').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true');
    // The replay panel after it is part of the same half.
    await page.getByTestId('replay-record').waitFor();
    assert.deepEqual(page.errors, []);
    await closePage(page);
  });
}

test('the timeline, the tokens and the model as text come with the first step, and the text shows the scene\'s state', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race&threads=3`);
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await page.getByTestId('model-player').waitFor();
  await page.waitForLoadState('networkidle');
  assert.ok(!fetched.some((f) => /split_moving/.test(f)), `fetched at open: ${fetched.join(' ')}`);
  // Until then the timeline's place is held, as tall as it will be.
  const held = await page.getByTestId('timeline-placeholder').boundingBox();
  assert.ok(held && held.height > 40, 'a placeholder holds the timeline\'s place');
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('timeline').locator('[data-step="1"]').waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-pending]'));
  assert.ok(fetched.some((f) => /split_moving/.test(f)), `fetched after the first step: ${fetched.join(' ')}`);
  assert.ok(Math.abs((await page.locator('.model-panel .timeline').first().boundingBox()).height - held.height) < 2, 'nothing below it moved');
  await page.getByTestId('scene-tokens').waitFor({ state: 'attached' });
  // As a reader scrolling down to the view: the GPU panel below it comes in as it nears, and its
  // status line grows as the GPU is found and the kernels compile. Clicked while that moved the
  // page, the summary was once missed on a busy machine and the view never opened; so the panel
  // settles first (as in the map's test), and the view must be open after the click.
  const summary = page.locator('details.as-text summary');
  await summary.scrollIntoViewIfNeeded();
  await waitForWarmGpu(page, { timeout: 120_000 });
  await summary.click();
  assert.ok(await page.locator('details.as-text').evaluate((d) => d.open), 'the click opened the view');
  // The scene carries the same test ids on its lanes; these are the view's own.
  const values = page.locator('details.as-text [data-testid^="lane-"][data-testid$="-value"]');
  await values.first().waitFor();
  assert.equal(await values.count(), 3);
  assert.deepEqual(page.errors, []);
  await closePage(page);
});
