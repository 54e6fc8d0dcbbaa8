// The atomic family: the reader's setup drives the model and the link, bad values are named,
// and the real kernel's returned values are explained by a one-at-a-time order for each op.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('model: atomicAdd of 1, 2, 4, 8 ends at 15 and each thread gets a different old value', async () => {
  const page = await LessonPage.open(site, 'atomic-ops', '');
  await page.keyboard.press('End');
  assert.equal(await page.text('model-cells.as_u32'), '15');
  const olds = [];
  for (let t = 0; t < 4; t++) olds.push(Number(await page.text(`model-olds[${t}]`)));
  assert.equal(new Set(olds).size, 4, `${olds}`);
  assert.ok(olds.includes(0), 'someone went first');
  assert.match(await page.text('model-outcome'), /the cell holds 15/);
  assert.deepEqual(page.errors, []);
});

test('the setup form drives the model and the link, and names a bad value', async () => {
  const page = await LessonPage.open(site, 'atomic-ops', '');
  await page.getByTestId('atomic-op').selectOption('max');
  await page.getByTestId('atomic-type').selectOption('i32');
  await page.getByTestId('atomic-operands').fill('5,-1,3');
  await page.getByTestId('atomic-operands').press('Enter');
  await page.getByTestId('atomic-operands').blur();
  await page.waitForFunction(() => location.search.includes('operands=5,-1,3'));
  assert.equal(await page.getByTestId('model-threads').inputValue(), '3');
  await page.keyboard.press('End');
  assert.equal(await page.text('model-cells.as_i32'), '5');
  assert.match(page.url(), /op=max/);
  assert.match(page.url(), /type=i32/);
  // On u32, -1 is refused with a message naming the field; the model keeps its setup.
  await page.getByTestId('atomic-type').selectOption('u32');
  assert.equal(await page.getByTestId('atomic-operands').inputValue(), '5,4294967295,3', 'the bits are kept');
  await page.getByTestId('atomic-initial').fill('-1');
  await page.getByTestId('atomic-initial').blur();
  assert.match(await page.text('atomic-setup-error'), /^initial="-1" was ignored: expected a u32/);
  assert.deepEqual(page.errors, []);
});

// Each op from the lesson's link, with what its final value must be wherever the order went.
const CASES = [
  ['add', 'u32', '0', '1,2,4,8,16,32,64,128', 255],
  ['sub', 'u32', '0', '1,2', 4294967293],
  ['max', 'i32', '-100', '5,-1,3,-7', 5],
  ['max', 'u32', '0', '5,4294967295,3', 4294967295],
  ['min', 'i32', '0', '5,-1,3', -1],
  ['and', 'u32', '0xFF', '0xF0,0x3C,0xFF', 0x30],
  ['or', 'u32', '0', '1,2,8', 11],
  ['xor', 'i32', '-1', '1,2,4,8', -16],
  ['load', 'u32', '42', '0,0,0', 42],
];

for (const [op, type, initial, operands, final] of CASES) {
  test(`GPU: ${op} on ${type} ends at ${final} and is explained by a serial order`, async () => {
    const page = await LessonPage.open(site, 'atomic-ops', `&op=${op}&type=${type}&initial=${initial}&operands=${operands}`);
    await page.runOnGpu();
    assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
    assert.equal(await page.getByTestId('gpu-final').getAttribute('data-raw'), String(final));
    assert.equal(await page.getByTestId('param-error').count(), 0);
    assert.deepEqual(page.errors, []);
  });
}

test('GPU: compare-exchange from the start has one winner, 100 runs all explained, and a JSON download', async () => {
  const page = await LessonPage.open(site, 'atomic-ops', '&op=compare-exchange-weak&initial=0&compare=0&operands=7,8,9,10,11,12');
  await page.runOnGpu('gpu-run-100');
  assert.equal(await page.text('gpu-runs'), '100');
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  const spurious = Number(await page.text('gpu-spurious'));
  const swapped = await page.locator('table.returned tbody tr td:nth-child(4)').allTextContents();
  const winners = swapped.filter((s) => s === 'yes').length;
  assert.ok(winners <= 1, `${swapped}`);
  if (spurious === 0) assert.equal(winners, 1, 'without a spurious failure exactly one swaps');
  const final = await page.getByTestId('gpu-final').getAttribute('data-raw');
  assert.ok(['7', '8', '9', '10', '11', '12', '0'].includes(final), final);
  console.log(`# on ${await page.getByTestId('adapter-name').textContent()}: finals ${await page.text('gpu-finals')}, ` +
    `${await page.text('gpu-patterns')} sets of returned values, ${spurious} spurious failures`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('gpu-download').click()]);
  const json = JSON.parse(await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c).toString()));
  assert.equal(json.syncscope, 'atomic-ops/runs');
  assert.equal(json.runs.length, 100);
  assert.ok(json.runs.every((r) => Array.isArray(r.serial_order) && r.returned.length === 6));
  assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
  await page.locator('.gpu-panel').screenshot({ path: screenshotPath('atomic-ops-cas') });
  await page.locator('.lesson-bar').screenshot({ path: screenshotPath('atomic-ops-setup') });
  assert.deepEqual(page.errors, []);
});

test('GPU: one workgroup per invocation, 100 runs of add, every run explained', async () => {
  const page = await LessonPage.open(site, 'atomic-ops', '&operands=1,2,4,8,16,32,64,128');
  await page.showGpu();
  await page.getByTestId('atomic-spread').check();
  await page.runOnGpu('gpu-run-100');
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  assert.equal(await page.text('gpu-finals'), '255 ×100', 'add ends at the same value in every order');
  assert.match(await page.locator('.figures').first().textContent(), /8 in a workgroup each/);
  console.log(`# workgroup each: ${await page.text('gpu-patterns')} sets of returned values in 100 runs`);
  assert.deepEqual(page.errors, []);
});

test("CUDA's atomicInc and atomicDec, built from compare-exchange: both walks come back whole", async () => {
  const page = await LessonPage.open(site, 'atomic-ops');
  await page.gpuReady();
  await page.getByTestId('wrap-run').click();
  await page.getByTestId('wrap-verdict').waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('wrap-verdict').getAttribute('data-ok'), 'true', await page.text('wrap-verdict'));
  const rows = await page.getByTestId('wrap-table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  // 1,000 invocations from 0, wrapping at 9: each of 0 … 9 returned 100 times, the cell back at 0.
  assert.deepEqual(rows, [
    ['atomicInc(&cell, 9)', '0', Array(10).fill('100').join(' '), '0'],
    ['atomicDec(&cell, 9)', '0', Array(10).fill('100').join(' '), '0'],
  ]);
  assert.match(await page.text('wrap-cuda'), /atomicInc\(&cell, 9\)/);
  // The WGSL shown is the kernel that ran: its file, from its first declaration on (the
  // opening comment aside), bound on tries and all, beside the table's "gave up" column.
  const file = fs.readFileSync(path.resolve(import.meta.dirname, '..', 'shaders', 'atomic-ops', 'atomic_inc_dec.wgsl'), 'utf8');
  const lines = file.split('\n');
  const first = lines.findIndex((l) => l !== '' && !l.startsWith('//'));
  const shown = await page.getByTestId('wrap-wgsl').textContent();
  assert.equal(shown, lines.slice(first).join('\n'), 'the kernel file as it is');
  const bound = file.match(/const MAX_TRIES: u32 = (\d+)u;/);
  assert.ok(bound, 'the kernel bounds its loop');
  assert.ok(shown.includes(bound[0]) && shown.includes('tries < MAX_TRIES') && shown.includes('atomicAdd(&gave_up, 1u)'), shown);
  assert.deepEqual(await page.getByTestId('wrap-table').locator('thead th').allTextContents(), ['op', 'cell after', 'how many got 0, 1 … 9 back', 'gave up']);
  assert.doesNotMatch(await page.text('wrap-cuda'), /loop|atomicCompareExchangeWeak/, 'no WGSL of its own beside the kernel');
  await page.locator('.gpu-panel').screenshot({ path: screenshotPath('atomic-ops-inc-dec') });
  assert.deepEqual(page.errors, []);
});
