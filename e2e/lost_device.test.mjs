// A lost device (here destroyed on purpose) gets a clear message and a working reconnect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { RacePage } from './support/race_page.mjs';

const site = useSite();

test('losing the device, then reconnecting and running again', async () => {
  const lesson = await RacePage.open(site.browser, site.url, '&variant=atomic&debug=1');
  assert.equal(await lesson.gpuState(), 'ready');
  await lesson.page.evaluate(() => window.syncscope.loseDevice());
  await lesson.page.waitForFunction(
    () => document.querySelector('[data-testid=gpu-status]')?.dataset.state === 'unavailable',
  );
  assert.match(await lesson.text('gpu-unavailable'), /device was lost/);
  await lesson.page.screenshot({ path: screenshotPath('race-device-lost'), fullPage: true });
  // The model keeps working while the GPU is gone.
  await lesson.testId('model-step').click();
  assert.deepEqual(await lesson.stepIndex(), [1, 1], "lockstep: all four atomicAdds in one tick");
  await lesson.testId('gpu-reconnect').click();
  assert.equal(await lesson.gpuState(), 'ready');
  await lesson.setGpuSize(512, 64);
  await lesson.runGpu();
  assert.equal(await lesson.number('gpu-observed'), 512);
  lesson.assertNoConsoleErrors();
});
