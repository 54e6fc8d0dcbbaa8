// A run that takes seconds shows a first look, read back from the GPU, before the whole run.
// (That every lesson's first run finds its pipelines compiled and maps each submission once is
// checked in the same pass over every lesson as the hosting test's: e2e/hosting.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { closePage, openPage, waitForGpu } from './support/browser.mjs';
import { clickAndWait } from '../bench/webgpu_replay.mjs';

const site = useSite();

test('a long run shows a first look read back from the GPU, then the whole run replaces it', async () => {
  for (const id of ['message-passing', 'histogram', 'reduction', 'litmus', 'scan']) {
    const page = await openPage(site.browser, `${site.url}?lesson=${id}`);
    await waitForGpu(page, 'ready', { timeout: 120_000 });
    // Each report state the page went through during the run: first look or whole run (a new
    // report, or the same one redrawn with new figures).
    await page.evaluate(() => {
      globalThis.__reports = [];
      new MutationObserver(() => {
        const partial = document.querySelector('[data-testid=gpu-report]')?.dataset.partial;
        if (partial !== undefined && partial !== globalThis.__reports.at(-1)) globalThis.__reports.push(partial);
      }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-partial'] });
    });
    const { firstResult, roundTrip } = await page.evaluate(clickAndWait, 'gpu-run');
    const reports = await page.evaluate(() => globalThis.__reports);
    assert.equal(reports[0], 'true', `${id}: the first report is a first look (${reports})`);
    assert.equal(reports.at(-1), 'false', `${id}: the whole run replaces it (${reports})`);
    assert.equal(await page.getByTestId('gpu-first-look').count(), 0, `${id}: the first-look notice is gone`);
    assert.ok(firstResult > 0 && firstResult < roundTrip, `${id}: first result ${firstResult} ms, whole ${roundTrip} ms`);
    console.log(`# ${id}: first look in hand after ${firstResult.toFixed(1)} ms, the whole run after ${roundTrip.toFixed(1)} ms`);
    assert.deepEqual(page.errors, [], `${id}: console errors`);
    await closePage(page);
  }
});
