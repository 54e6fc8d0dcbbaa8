// Each GPU panel downloads its results as JSON: the adapter, the parameters and the raw
// numbers, the same ones the page shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { useSite } from './support/fixture.mjs';
import { openPage } from './support/browser.mjs';
import { RacePage } from './support/race_page.mjs';
import { LessonPage } from './support/lesson_page.mjs';

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

// The other lessons' panels, each run small: the file's numbers are the ones the page shows.

const openLesson = (id, query) => LessonPage.open(site, id, query, { acceptDownloads: true });
/** A comma-separated list the page keeps in a hidden element, as numbers. */
const list = async (page, id) => (await page.testId(id).textContent()).split(',').map(Number);
/** A table's body rows, each as its cells' texts. */
const tableCells = (page, id) =>
  page.testId(id).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
/** A timing cell as the JSON has it: "—" where the adapter has no timestamps. */
const ms = (cell) => (cell === '—' ? null : Number(cell));

/** Presses a panel's own run button once the adapter is ready, and waits for `shown`. */
async function runPanel(page, button, shown, timeout = 120_000) {
  await page.gpuReady();
  await page.testId(button).click();
  await page.testId(shown).waitFor({ timeout });
}

async function header(page, testId, file, syncscope) {
  const { name, json } = await download(page, testId);
  assert.equal(name, file);
  assert.equal(json.syncscope, syncscope);
  assert.equal(json.adapter.name, await page.text('adapter-name'));
  return json;
}

test('cas-max downloads the bits left in best and every retry count', async () => {
  const page = await openLesson('cas-max', '&variant=non-positive&invocations=1024&workgroup=64');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-cas-max-non-positive-1024.json', 'cas-max/run');
  assert.equal(json.variant, 'non-positive');
  assert.deepEqual(json.parameters, { invocations: 1024, workgroup_size: 64, workgroups: 16 });
  assert.deepEqual(json.retries, await list(page, 'gpu-retry-list'));
  assert.equal(`0x${json.best_bits.toString(16).padStart(8, '0')}`, await page.testId('gpu-observed').getAttribute('data-raw'));
  assert.equal(json.gave_up, await page.number('gpu-gave-up'));
  page.assertNoConsoleErrors();
});

test('spinlock downloads what the kernel counted', async () => {
  const page = await openLesson('spinlock', '&variant=enter-in-loop&invocations=256&workgroup=64');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-spinlock-enter-in-loop-256.json', 'spinlock/run');
  assert.equal(json.variant, 'enter-in-loop');
  assert.deepEqual(json.parameters, { invocations: 256, workgroup_size: 64, workgroups: 4, max_tries: 20000 });
  for (const [key, id] of [['entered', 'gpu-entered'], ['gave_up', 'gpu-gave-up'], ['counter', 'gpu-counter'], ['overlaps', 'gpu-overlaps']]) {
    assert.equal(json[key], await page.number(id), key);
  }
  assert.equal(json.entered + json.gave_up, 256, 'every invocation entered or gave up');
  page.assertNoConsoleErrors();
});

test('barrier downloads every read and both tickets of every invocation', async () => {
  const page = await openLesson('barrier', '&variant=with&invocations=256&workgroup=64');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-barrier-with-256.json', 'barrier/run');
  assert.equal(json.variant, 'with');
  assert.deepEqual(json.parameters, { invocations: 256, workgroup_size: 64, workgroups: 4 });
  assert.deepEqual(json.got, await list(page, 'gpu-got'));
  assert.equal(json.stale_reads, await page.number('gpu-stale'));
  assert.equal(json.right_reads, await page.number('gpu-right'));
  assert.equal(json.arrival_tickets.length, 256);
  assert.equal(json.departure_tickets.length, 256);
  page.assertNoConsoleErrors();
});

test('barrier, across workgroups: downloads every read of each way', async () => {
  const page = await openLesson('barrier', '&invocations=256&workgroup=64');
  await runPanel(page, 'across-run', 'across-verdict');
  const json = await header(page, 'across-download', 'syncscope-barrier-across-256.json', 'barrier/across');
  assert.deepEqual(json.parameters, { invocations: 256, workgroup_size: 64, workgroups: 4 });
  assert.deepEqual(json.ways.map((w) => w.how), ['within-workgroup', 'next-workgroup-one-dispatch', 'next-workgroup-two-dispatches']);
  const rows = await tableCells(page, 'across-table');
  json.ways.forEach((w, i) => {
    assert.equal(w.got.length, 256, w.how);
    assert.equal(w.got.filter((v) => v === 0).length, w.stale_reads, w.how);
    assert.equal(rows[i][2], `${w.stale_reads} of 256`, w.how);
  });
  page.assertNoConsoleErrors();
});

test('reduction trace downloads the workgroup memory after each step', async () => {
  const page = await openLesson('reduction', '&threads=8');
  await runPanel(page, 'trace-run', 'trace-verdict', 60_000);
  const json = await header(page, 'trace-download', 'syncscope-reduction-trace-8.json', 'reduction/trace');
  assert.deepEqual(json.parameters, { threads: 8 });
  assert.deepEqual(json.input, [3, 1, 4, 1, 5, 9, 2, 6]);
  const rows = await tableCells(page, 'trace-table');
  assert.deepEqual(json.cells, rows.map((r) => r.slice(1).map(Number)));
  page.assertNoConsoleErrors();
});

test('reduction timing downloads the three sums and their times', async () => {
  const page = await openLesson('reduction', '&invocations=4096&workgroup=64');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-reduction-4096.json', 'reduction/timing');
  assert.deepEqual(json.parameters, { invocations: 4096, workgroup_size: 64, repeats: 20 });
  assert.equal(json.tree_sum, await page.number('gpu-tree-sum'));
  assert.equal(json.expected_sum, await page.number('gpu-expected'));
  assert.ok('tree_gpu_ms_per_sum' in json && 'atomic_gpu_ms_per_sum' in json && 'tree_atomic_gpu_ms_per_sum' in json);
  assert.deepEqual([json.atomic_right, json.tree_atomic_right], [true, true], "each counter holds every repeat's sum");
  assert.equal(json.tree_atomic_total, json.expected_atomic_total);
  page.assertNoConsoleErrors();
});

test('tiled downloads the product the GPU wrote', async () => {
  const page = await openLesson('tiled', '&variant=both');
  await page.showGpu();
  await page.testId('tiled-n').selectOption('16');
  await page.testId('tiled-tile').selectOption('4');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-tiled-both-16.json', 'tiled/runs');
  assert.equal(json.variant, 'both');
  assert.deepEqual(json.parameters, { matrix_width: 16, tile_width: 4, workgroups: 16, invocations_per_workgroup: 16, runs: 1 });
  assert.deepEqual(json.last_product, (await page.testId('gpu-product').locator('td').allTextContents()).map(Number));
  assert.equal(json.runs[0].wrong_cell_count, Number(await page.testId('gpu-wrong').getAttribute('data-raw')));
  page.assertNoConsoleErrors();
});

test('histogram downloads all 256 bins of each way', async () => {
  const page = await openLesson('histogram', '&invocations=4096&workgroup=64');
  await page.showGpu();
  await page.testId('histogram-distinct').selectOption('4');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-histogram-4096-4.json', 'histogram/run');
  assert.deepEqual(json.parameters, { values: 4096, workgroup_size: 64, bins_hit: 4, repeats: 20, values_per_invocation: 16, bins: 256 });
  const rows = await tableCells(page, 'histogram-table');
  json.ways.forEach((w, i) => {
    assert.equal(w.bins.length, 256, w.variant);
    assert.equal(rows[i][1], `${w.bins.reduce((a, b) => a + b, 0)} of ${4096 * 20}`, w.variant);
  });
  for (const w of json.ways.filter((w) => w.variant !== 'plain')) assert.deepEqual(w.bins, json.cpu_histogram.map((c) => c * 20), w.variant);
  page.assertNoConsoleErrors();
});

test('histogram sweep downloads every point\'s bins and times', async () => {
  const page = await openLesson('histogram', '&invocations=4096&workgroup=64');
  await runPanel(page, 'sweep-run', 'sweep-report');
  const json = await header(page, 'sweep-download', 'syncscope-histogram-sweep-4096.json', 'histogram/sweep');
  assert.deepEqual(json.parameters, { values: 4096, workgroup_size: 64, bins_hit: [1, 2, 4, 8, 16, 32, 64, 128, 256], repeats: 20, values_per_invocation: 16 });
  const rows = await tableCells(page, 'sweep-table');
  assert.deepEqual(rows.map((r) => Number(r[0])), json.points.map((p) => p.bins_hit));
  assert.deepEqual(rows.map((r) => r.slice(1).map(ms)), json.points.map((p) => p.ways.map((w) => w.gpu_ms_per_dispatch)));
  assert.ok(json.points.every((p) => p.ways.every((w) => w.bins.length === 256 && (w.variant === 'plain' || w.equals_cpu))));
  page.assertNoConsoleErrors();
});

test('histogram size sweep downloads every size\'s bins and times', async () => {
  const page = await openLesson('histogram', '&workgroup=256');
  await runPanel(page, 'size-sweep-run', 'size-sweep-report', 180_000);
  const json = await header(page, 'size-sweep-download', 'syncscope-histogram-size-sweep-256.json', 'histogram/size-sweep');
  assert.deepEqual(json.parameters, { values: [4096, 16384, 65536, 262144, 1048576], workgroup_size: 256, bins_hit: 256, repeats: 20, values_per_invocation: 16 });
  const rows = await tableCells(page, 'size-sweep-table');
  assert.deepEqual(rows.map((r) => Number(r[0])), json.points.map((p) => p.values));
  assert.deepEqual(rows.map((r) => r.slice(1).map(ms)), json.points.map((p) => p.ways.map((w) => w.gpu_ms_per_dispatch)));
  page.assertNoConsoleErrors();
});

test('message passing downloads each variant\'s four outcome counters', async () => {
  const page = await openLesson('message-passing', '&invocations=1024&workgroup=64');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-message-passing-1024-10.json', 'message-passing/runs');
  assert.deepEqual(json.parameters, { invocations: 1024, workgroup_size: 64, workgroups: 16, dispatches: 10 });
  assert.deepEqual(json.variants.map((v) => v.variant), ['relaxed', 'storage-barrier', 'workgroup-barrier', 'same-workgroup']);
  const rows = await tableCells(page, 'litmus-table');
  json.variants.forEach((v, i) => {
    const c = v.counts;
    assert.deepEqual(rows[i].slice(1, 5).map(Number), [c.reader_first, c.writer_first, c.interleaved, c.weak], v.variant);
    assert.equal(v.instances_counted, 10240, v.variant);
  });
  page.assertNoConsoleErrors();
});

test('message-passing throughput downloads both runs', async () => {
  const page = await openLesson('message-passing', '&variant=relaxed&invocations=1024&workgroup=64');
  await runPanel(page, 'throughput-run', 'throughput-report');
  const json = await header(page, 'throughput-download', 'syncscope-message-passing-throughput-relaxed-1024.json', 'message-passing/throughput');
  assert.equal(json.variant, 'relaxed');
  assert.deepEqual(json.parameters, { invocations: 1024, workgroup_size: 64, workgroups: 16, dispatches: 10, smallest_dispatches: 1000 });
  const rows = await tableCells(page, 'throughput-table');
  [json.many, json.smallest].forEach((run, i) => {
    assert.deepEqual(rows[i].slice(1, 4), [run.layout.instances_per_dispatch, run.dispatches, run.instances_counted].map(String));
  });
  assert.equal(json.many.instances_counted, 10240);
  assert.equal(json.smallest.instances_counted, 2000);
  page.assertNoConsoleErrors();
});

test('semaphore downloads what the kernel counted, with its limit', async () => {
  const page = await openLesson('semaphore', '&variant=check-then-take&invocations=256&workgroup=64');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-semaphore-check-then-take-256.json', 'semaphore/run');
  assert.equal(json.variant, 'check-then-take');
  assert.deepEqual(json.parameters, { invocations: 256, workgroup_size: 64, workgroups: 4, limit: 4, max_tries: 20000 });
  for (const [key, id] of [['entered', 'gpu-entered'], ['gave_up', 'gpu-gave-up'], ['peak_inside', 'gpu-peak'], ['entries_over_limit', 'gpu-over'], ['count_at_end', 'gpu-count']]) {
    assert.equal(json[key], await page.number(id), key);
  }
  assert.equal(json.limit_held, json.peak_inside <= 4 && json.entries_over_limit === 0);
  page.assertNoConsoleErrors();
});

test('producer-consumer downloads what its consumers counted, with what WGSL promises', async () => {
  const page = await openLesson('producer-consumer', '&variant=two-dispatches&invocations=256&workgroup=64');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-producer-consumer-two-dispatches-256.json', 'producer-consumer/run');
  assert.deepEqual(json.parameters, { invocations: 256, workgroup_size: 64, workgroups: 4, spin_limit: 4096 });
  for (const [key, id] of [['consumed', 'gpu-consumed'], ['stale', 'gpu-stale'], ['gave_up', 'gpu-gave-up']]) {
    assert.equal(json[key], await page.number(id), key);
  }
  assert.deepEqual([json.promises_data, json.promises_flag, json.promise_held], [true, true, true]);
  page.assertNoConsoleErrors();
});

test('scopes downloads its fresh and stale reads', async () => {
  const page = await openLesson('scopes', '&variant=workgroup-barrier-across&invocations=256&workgroup=64');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-scopes-workgroup-barrier-across-256.json', 'scopes/run');
  assert.equal(json.parameters.neighbour_across_workgroups, true);
  assert.equal(json.fresh, await page.number('gpu-fresh'));
  assert.equal(json.stale, await page.number('gpu-stale'));
  assert.equal(json.fresh + json.stale, 256);
  page.assertNoConsoleErrors();
});

test('grid-barrier downloads every run of its sweep', async () => {
  const page = await openLesson('grid-barrier', '&invocations=512&workgroup=64');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-grid-barrier-512.json', 'grid-barrier/sweep');
  assert.deepEqual(json.runs.map((r) => [r.way, r.workgroups]), [1, 2, 4, 8].map((w) => ['grid-barrier', w]).concat([['two-dispatches', 8]]));
  const rows = await tableCells(page, 'gpu-sweep');
  json.runs.forEach((r, i) => assert.deepEqual(rows[i].slice(2, 4), [String(r.passed), String(r.gave_up)]));
  assert.ok(json.runs.every((r) => r.accounts_consistent && r.promise_held));
  page.assertNoConsoleErrors();
});

test('scan downloads its tile scans, the three dispatches and both compactions', async () => {
  const page = await openLesson('scan', '&invocations=1000&workgroup=64');
  await page.runOnGpu();
  const json = await header(page, 'gpu-download', 'syncscope-scan-1000.json', 'scan/run');
  assert.deepEqual(json.tiles.map((t) => t.way), ['hillis-steele', 'one-barrier', 'work-efficient']);
  const rows = await tableCells(page, 'gpu-tiles');
  json.tiles.forEach((t, i) => assert.equal(rows[i][1], `${t.wrong_sums} of 1000`));
  assert.equal(json.three_dispatches.wrong_sums, await page.number('gpu-large-wrong'));
  assert.equal(json.three_dispatches.total, await page.number('gpu-total'));
  assert.equal(json.compaction.kept, await page.number('gpu-kept'));
  assert.ok(json.compaction.kept_in_input_order && json.compaction.atomic_add_same_values && json.promise_held);
  page.assertNoConsoleErrors();
});
