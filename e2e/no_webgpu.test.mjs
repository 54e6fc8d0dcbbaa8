// Without --enable-unsafe-webgpu headless Chromium gives no adapter: the lesson must say so
// plainly and keep the model working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { RacePage } from './support/race_page.mjs';

const site = useSite({ webgpu: false });

test('no adapter: a clear notice, and the model still steps', async () => {
  const lesson = await RacePage.open(site.browser, site.url);
  assert.equal(await lesson.gpuState(), 'unavailable');
  const notice = await lesson.text('gpu-unavailable');
  assert.match(notice, /(no WebGPU|offered no GPU adapter)/);
  assert.match(notice, /model still works/);
  // Served from 127.0.0.1, a secure context: what is missing is the browser's WebGPU (no
  // `navigator.gpu`) or its adapter (`requestAdapter()` gave none), and the page says which.
  assert.equal(await lesson.page.evaluate(() => window.isSecureContext), true);
  const hasGpu = await lesson.page.evaluate(() => navigator.gpu != null);
  assert.equal(await lesson.testId('gpu-status').getAttribute('data-reason'), hasGpu ? 'no-adapter' : 'no-webgpu');
  assert.doesNotMatch(notice, /secure context/);
  assert.equal(await lesson.testId('gpu-run').isDisabled(), true);
  await lesson.page.keyboard.press('End');
  assert.equal(await lesson.number('model-counter'), 1);
  await lesson.page.screenshot({ path: screenshotPath('race-no-webgpu'), fullPage: true });
  lesson.assertNoConsoleErrors();
});
