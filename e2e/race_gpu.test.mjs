// The race lesson's GPU half on the browser's WebGPU adapter, checked against the model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { RacePage } from './support/race_page.mjs';

const site = useSite();

test('the atomic kernel counts every invocation', async () => {
  const lesson = await RacePage.open(site.browser, site.url, '&variant=atomic');
  assert.equal(await lesson.gpuState(), 'ready');
  assert.ok((await lesson.text('adapter-name')).length > 0);
  await lesson.setGpuSize(1024, 64);
  await lesson.runGpu();
  assert.equal(await lesson.number('gpu-expected'), 1024);
  assert.equal(await lesson.number('gpu-observed'), 1024);
  assert.equal(await lesson.number('gpu-lost'), 0);
  await lesson.runGpu('gpu-run-100', 100);
  assert.deepEqual(new Set(await lesson.finals()), new Set([1024]));
  assert.equal(await lesson.testId('gpu-verdict').getAttribute('data-ok'), 'true');
  lesson.assertNoConsoleErrors();
});

test('the racy kernel loses updates, always within what the model allows', async () => {
  const lesson = await RacePage.open(site.browser, site.url, '&variant=racy');
  assert.equal(await lesson.gpuState(), 'ready');
  await lesson.setGpuSize(1024, 64);
  await lesson.runGpu();
  const observed = await lesson.number('gpu-observed');
  assert.ok(observed >= 1 && observed <= 1024, `observed ${observed}`);
  await lesson.runGpu('gpu-run-100', 100);
  const finals = await lesson.finals();
  assert.equal(finals.length, 100);
  assert.ok(finals.every((c) => c >= 1 && c <= 1024), `finals ${finals}`);
  // Guaranteed: the range. Observed here, not promised: lanes in lockstep lose updates.
  assert.ok(finals.some((c) => c < 1024), 'no run lost an update');
  assert.equal(await lesson.testId('gpu-verdict').getAttribute('data-ok'), 'true');
  // The verdict's words follow the counts read back: one count every time, or a spread.
  const [lowest, highest] = [Math.min(...finals), Math.max(...finals)];
  const words = await lesson.text('gpu-verdict');
  if (lowest === highest) assert.match(words, new RegExp(`^All 100 runs ended at ${lowest} of 1024: ${1024 - lowest} increments lost in each`));
  else assert.match(words, new RegExp(`ended between ${lowest} and ${highest} of 1024`));
  assert.ok(Number(await lesson.text('gpu-runs-per-second')) > 0);
  await lesson.page.screenshot({ path: screenshotPath('race-racy-gpu'), fullPage: true });
  console.log(`racy x100 on ${await lesson.text('adapter-name')}: ${[...new Set(finals)].sort((a, b) => a - b)}`);
  lesson.assertNoConsoleErrors();
});

test('sizes beyond the adapter are refused with a message, and the page keeps working', async () => {
  const lesson = await RacePage.open(site.browser, site.url);
  await lesson.gpuState();
  await lesson.setGpuSize(1024, 100000);
  await lesson.testId('gpu-run').click();
  assert.match(await lesson.text('gpu-error'), /workgroup size must be between 1 and \d+/);
  await lesson.setGpuSize('lots', 64);
  await lesson.testId('gpu-run').click();
  assert.match(await lesson.text('gpu-error'), /invocations="lots" was ignored/);
  await lesson.setGpuSize(256, 64);
  await lesson.runGpu();
  assert.equal(await lesson.number('gpu-expected'), 256);
  lesson.assertNoConsoleErrors();
});

test('the replay shows what the GPU recorded, in ticket order', async () => {
  const lesson = await RacePage.open(site.browser, site.url, '&variant=racy&threads=8');
  await lesson.gpuState();
  await lesson.testId('replay-record').click();
  await lesson.testId('replay-player').waitFor();
  const [, total] = await lesson.stepIndex('replay');
  assert.equal(total, 16, 'a load and a store for each of 8 invocations');
  await lesson.testId('replay-step').click();
  assert.match(await lesson.text('replay-narration'), /^ticket 0: invocation \d+ loaded \d+/);
  // Drawn in the model's scene: a lane per recorded invocation, the one that loaded holding
  // what it recorded, the counter as replayed.
  const scene = lesson.testId('replay-scene');
  assert.equal(await scene.locator('[data-testid^=scene-lane-]').count(), 8);
  const first = Number((await lesson.text('replay-narration')).match(/invocation (\d+) loaded (\d+)/)[1]);
  const loaded = (await lesson.text('replay-narration')).match(/loaded (\d+)/)[1];
  assert.equal(await scene.getByTestId(`lane-${first}-value`).textContent(), loaded);
  await lesson.testId('replay-scrub').fill(String(total));
  assert.equal(await scene.getByTestId('model-counter').textContent(), await lesson.text('replay-counter'));
  const final = await lesson.number('replay-final');
  assert.ok(final >= 1 && final <= 8, `final ${final}`);
  assert.match(await lesson.text('replay-summary'), /racy kernel, 8 invocations: 16 accesses recorded/);
  // The same accesses in the timeline: a column per recorded access, a row per invocation.
  const timeline = lesson.testId('replay-timeline');
  assert.equal(await timeline.locator('[data-step]').count(), 16);
  assert.equal(await timeline.locator('.tl-read').count(), 8);
  assert.equal(await timeline.locator('.tl-write').count(), 8);
  await timeline.locator('[data-step="3"]').click();
  assert.equal((await lesson.stepIndex('replay'))[0], 3);
  await lesson.page.screenshot({ path: screenshotPath('race-replay'), fullPage: true });
  lesson.assertNoConsoleErrors();
});
