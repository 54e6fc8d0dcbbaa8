// A GPU run is one trip to the GPU and back, and its pipelines are compiled before the reader
// clicks. The WebGPU calls one click makes, recorded in the page (bench/webgpu_replay.mjs), say
// so for every lesson's main Run button. A run that takes seconds shows a first look first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { lessonIds, openPage, waitForGpu, waitForWarmGpu } from './support/browser.mjs';
import { clickAndWait, recordWebGpu } from '../bench/webgpu_replay.mjs';

const site = useSite();

test("every lesson's first run finds its pipelines compiled, and maps each submission's results once", async () => {
  const ids = (await lessonIds(site.browser, site.url)).filter((id) => id !== 'cuda-map');
  for (const id of ids) {
    const page = await openPage(site.browser, `${site.url}?lesson=${id}`, { initScript: recordWebGpu });
    // Ready, and nothing left compiling in the background.
    await waitForWarmGpu(page, { timeout: 120_000 });
    await page.evaluate(() => globalThis.__webgpuLog.start());
    const { roundTrip } = await page.evaluate(clickAndWait, 'gpu-run');
    await page.evaluate(() => globalThis.__webgpuLog.stop());
    const calls = await page.evaluate(() => globalThis.__webgpuRecorded.log.map((c) => c.method));
    const count = (m) => calls.filter((c) => c === m).length;
    assert.equal(count('createShaderModule') + count('createComputePipeline'), 0, `${id}: the first click compiled a pipeline`);
    assert.ok(count('submit') >= 1, `${id}: the click submitted nothing`);
    assert.equal(count('mapAsync'), count('submit'), `${id}: one map per submission (${calls.join(' ')})`);
    // Each submission's errors are asked for before its results are awaited, not a trip later.
    for (let i = calls.indexOf('submit'); i >= 0; i = calls.indexOf('submit', i + 1)) {
      const next = calls.slice(i + 1);
      const pop = next.indexOf('popErrorScope');
      const map = next.indexOf('mapAsync');
      assert.ok(pop >= 0 && pop < map, `${id}: errors asked for after the map (${calls.join(' ')})`);
    }
    assert.ok(roundTrip > 0, `${id}: the run's round trip is on its button`);
    assert.deepEqual(page.errors, [], `${id}: console errors`);
    await page.context().close();
  }
});

test('a long run shows a first look read back from the GPU, then the whole run replaces it', async () => {
  for (const id of ['message-passing', 'histogram', 'reduction', 'litmus']) {
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
    await page.context().close();
  }
});
