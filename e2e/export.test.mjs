// Each GPU panel downloads its results as JSON: the adapter, the parameters and the raw
// numbers, the same ones the page shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { useSite } from './support/fixture.mjs';
import { openPage } from './support/browser.mjs';
import { RacePage } from './support/race_page.mjs';

const site = useSite();

async function download(page, testId) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: file.suggestedFilename(), json: JSON.parse(await fs.readFile(await file.path(), 'utf8')) };
}

test('"run 100×" downloads every final count with the adapter and sizes', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race&invocations=512&workgroup=32`, { acceptDownloads: true });
  const lesson = new RacePage(page);
  assert.equal(await lesson.gpuState(), 'ready');
  await lesson.runGpu('gpu-run-100', 100);
  const { name, json } = await download(page, 'gpu-download');
  assert.equal(name, 'syncscope-race-racy-512.json');
  assert.equal(json.syncscope, 'race/runs');
  assert.equal(json.adapter.name, await lesson.text('adapter-name'));
  assert.deepEqual(json.parameters, { invocations: 512, workgroup_size: 32, workgroups: 16, runs: 100 });
  assert.deepEqual(json.final_counts, await lesson.finals());
  assert.deepEqual(json.allowed_final_counts, [1, 512]);
  assert.ok(json.final_counts.every((c) => c >= 1 && c <= 512));
  lesson.assertNoConsoleErrors();
});

test('the replay downloads each invocation\'s record', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race&threads=6`, { acceptDownloads: true });
  const lesson = new RacePage(page);
  assert.equal(await lesson.gpuState(), 'ready');
  await lesson.testId('replay-record').click();
  await lesson.testId('replay-summary').waitFor({ timeout: 60_000 });
  const { json } = await download(page, 'replay-download');
  assert.equal(json.syncscope, 'race/replay');
  assert.equal(json.records.length, 6);
  assert.equal(String(json.final_count), await lesson.text('replay-final'));
  // Tickets are a permutation of 0..2n-1: every load and every store took one.
  const tickets = json.records.flatMap((r) => [r.load_ticket, r.store_ticket]).sort((a, b) => a - b);
  assert.deepEqual(tickets, [...Array(12).keys()]);
  lesson.assertNoConsoleErrors();
});
