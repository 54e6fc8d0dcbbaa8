// The message-passing lesson: the model's every interleaving is counted and none is weak; on
// the GPU all four variants count every instance, with the outcomes read back from the kernel
// and drawn on a log scale; weak outcomes are reported, never required; a size a variant cannot
// pair is named in its row; and the throughput comparison counts both sides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

const tableRows = (page, id) => page.getByTestId(id).locator('tbody tr').allTextContents();

test('model: every interleaving counted, none weak; lockstep ends writer first for both', async () => {
  const page = await LessonPage.open(site, 'message-passing', '');
  assert.match(await page.text('model-interleavings'), /252 orders of the two threads, 504 reads/);
  const rows = await tableRows(page, 'model-interleavings');
  assert.equal(rows.length, 4);
  assert.match(rows[3], /weak.*weak0$/);
  await page.keyboard.press('End');
  assert.match(await page.text('model-outcome'), /thread 0 read thread 1's message: flag 1, data 1 — writer first \(sequential\)/);
  await page.getByTestId('variant-same-workgroup').click();
  const same = await tableRows(page, 'model-interleavings');
  assert.match(same[0], /reader first.*sequential0$/, 'the barriers make the data always seen');
  assert.match(same[3], /weak0$/);
  await page.locator('.lesson-grid').screenshot({ path: screenshotPath('message-passing-model') });
  assert.deepEqual(page.errors, []);
});

test('GPU: all four variants count every instance; no outcome a promise forbids', async () => {
  const page = await LessonPage.open(site, 'message-passing', '&invocations=65536&workgroup=256');
  await page.runOnGpu();
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  const rows = await tableRows(page, 'litmus-table');
  assert.equal(rows.length, 4);
  for (const row of rows) assert.match(row, /yes$/, row);
  const cells = async (i) => (await page.getByTestId('litmus-table').locator('tbody tr').nth(i).locator('td').allTextContents());
  for (let i = 0; i < 4; i++) {
    const c = await cells(i);
    const counts = c.slice(1, 5).map(Number);
    assert.equal(counts.reduce((a, b) => a + b, 0), 655360, c.join(' | '));
  }
  const same = await cells(3);
  assert.equal(same[1], '0', 'reader first is impossible within a workgroup');
  assert.equal(same[4], '0', 'weak is impossible within a workgroup');
  assert.ok((await page.getByTestId('litmus-chart').locator('rect.bar').count()) >= 4);
  await page.getByTestId('measured-h100').locator('summary').click();
  assert.ok((await tableRows(page, 'measured-litmus-table')).length >= 4);
  assert.ok((await page.getByTestId('measured-litmus-chart').count()) >= 1);
  assert.match(await page.text('measured-weak'), /^Weak outcomes there: across, relaxed \d+ of \d+;.*the usual warning.*held there/i);
  await page.getByTestId('measured-h100').screenshot({ path: screenshotPath('message-passing-h100') });
  console.log(`# message passing 65536 × 10 on ${await page.getByTestId('adapter-name').textContent()}: ${rows.join(' | ')}`);
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('message-passing-gpu') });
  assert.deepEqual(page.errors, []);
});

test('GPU, by keyboard: one workgroup cannot pair across workgroups; that row says so and the rest runs', async () => {
  const page = await LessonPage.open(site, 'message-passing', '&invocations=64&workgroup=64');
  // By keyboard alone: the dispatch choice, then the run button (once the reader has reached
  // the GPU panel, which brings them).
  await page.showGpu();
  await page.getByTestId('litmus-dispatches').focus();
  await page.keyboard.press('Home');
  assert.equal(await page.getByTestId('litmus-dispatches').inputValue(), '1');
  await waitForGpu(page);
  await page.getByTestId('gpu-run').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('gpu-report').waitFor({ timeout: 120_000 });
  const rows = await tableRows(page, 'litmus-table');
  for (const row of rows.slice(0, 3)) assert.match(row, /not run: .*at least two/, row);
  assert.match(rows[3], /yes$/);
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true');
  assert.deepEqual(page.errors, []);
});

test('throughput: many instances per dispatch against the smallest test, both counted', async () => {
  const page = await LessonPage.open(site, 'message-passing', '&invocations=65536&workgroup=256');
  await waitForGpu(page);
  await page.getByTestId('throughput-run').click();
  await page.getByTestId('throughput-report').waitFor({ timeout: 120_000 });
  const rows = await tableRows(page, 'throughput-table');
  const cells = async (i) => (await page.getByTestId('throughput-table').locator('tbody tr').nth(i).locator('td').allTextContents());
  assert.deepEqual((await cells(0)).slice(0, 4), ['many per dispatch', '65536', '10', '655360']);
  assert.deepEqual((await cells(1)).slice(0, 4), ['smallest test per dispatch', '2', '1000', '2000']);
  const ratio = Number(await page.getByTestId('throughput-report').getAttribute('data-ratio'));
  assert.ok(ratio > 0);
  console.log(`# throughput: ${rows.join(' | ')} — ${await page.text('throughput-verdict')}`);
  assert.deepEqual(page.errors, []);
});
