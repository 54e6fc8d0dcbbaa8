// The scan: in the model Hillis–Steele and the work-efficient sweeps end with every running
// total right; with one barrier taken away lockstep is still right and a serial schedule
// counts a value twice. On the GPU, both tile scans, the three-dispatch scan and the ordered
// compaction are exact; the one-barrier kernel's wrong sums are counted, never asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();
const SCAN = [3, 4, 8, 9, 14, 23, 25, 31];

async function cells(page) {
  return Promise.all(SCAN.map((_, i) => page.text(`model-cells[${i}]`).then(Number)));
}

test('model: 3, 1, 4, 1, 5, 9, 2, 6 scans to 3, 4, 8, 9, 14, 23, 25, 31 both ways; one barrier fewer counts 3 twice', async () => {
  const page = await LessonPage.open(site, 'scan', '&schedule=serial');
  await page.toEnd();
  assert.deepEqual(await cells(page), SCAN);
  assert.match(await page.text('model-outcome'), /every cell holds the sum of the inputs up to it, 31/);
  await page.getByTestId('variant-work-efficient').click();
  await page.toEnd();
  assert.deepEqual(await cells(page), SCAN);
  await page.getByTestId('variant-one-barrier').click();
  await page.toEnd();
  const wrong = await cells(page);
  assert.equal(wrong[2], 11, 'cells[2] read cells[1] after t1 added into it');
  assert.match(await page.text('model-outcome'), /cells\[2\] = 11, not 8/);
  await page.getByTestId('scene').screenshot({ path: screenshotPath('scan-one-barrier') });
  assert.deepEqual(page.errors, []);
  const lockstep = await LessonPage.open(site, 'scan', '&variant=one-barrier&schedule=lockstep');
  await lockstep.toEnd();
  assert.deepEqual(await cells(lockstep), SCAN, 'in lockstep every read comes before any write');
  assert.deepEqual(lockstep.errors, []);
});

test('model: one pass; a workgroup held back has its tile summed by the next one, a ticket never goes to one not started, and without the fallback the next one gives up', async () => {
  const page = await LessonPage.open(site, 'scan', '&variant=single-pass&threads=4&schedule=serial');
  await page.toEnd();
  assert.match(await page.text('model-outcome'), /every tile holds the sum of the input up to it, 9 in the last/);
  assert.equal(await page.text('model-flags[3]'), 'incl 9');
  // t0 is stepped `t0Steps` times (by id: never, so tile 0 stays silent; by ticket: once, to
  // hold ticket 0); t1 alone runs to its end, which takes 25 steps with the fallback (two
  // silent looks, then tile 0 summed) and 21 without (a give-up).
  const held = async (variant, t0Steps, steps) => {
    const p = await LessonPage.open(site, 'scan', `&variant=${variant}&threads=4&schedule=manual`);
    for (let i = 0; i < t0Steps; i++) await p.testId('step-thread-0').click();
    for (let i = 0; i < steps; i++) await p.testId('step-thread-1').click();
    return p;
  };
  for (const [variant, t0Steps] of [['single-pass', 0], ['tickets', 1]]) {
    const rescued = await held(variant, t0Steps, 25);
    assert.equal(await rescued.text('model-flags[0]'), 'sum 3', `${variant}: the fallback posted tile 0 for it`);
    assert.equal(await rescued.text('model-fallbacks'), '1');
    assert.equal(await rescued.text('model-output[1]'), '4');
    if (variant === 'single-pass') await rescued.getByTestId('scene').screenshot({ path: screenshotPath('scan-single-pass-fallback') });
    assert.deepEqual(rescued.errors, []);
  }
  // By ticket with t0 never started, t1 takes ticket 0 and waits on nobody.
  const first = await held('tickets', 0, 5);
  assert.equal(await first.text('model-flags[0]'), 'incl 3', 't1 scanned tile 0');
  assert.equal(await first.text('model-fallbacks'), '0');
  assert.equal(await first.text('model-next_tile'), '1');
  const gaveUp = await held('no-fallback', 1, 21);
  assert.equal(await gaveUp.text('model-flags[0]'), '—', 'nobody posted tile 0');
  assert.equal(await gaveUp.text('model-give_ups'), '1');
  assert.equal(await gaveUp.text('model-output[1]'), '1', 'tile 1 posted what it had: its own digit');
  assert.deepEqual(gaveUp.errors, []);
});

test('GPU: tile scans, three dispatches and the ordered compaction are exact; atomicAdd keeps the same values', async () => {
  const page = await LessonPage.open(site, 'scan', '&invocations=4000&workgroup=64');
  await page.gpuReady();
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-verdict').waitFor({ timeout: 120_000 });
  const verdict = page.getByTestId('gpu-verdict');
  assert.equal(await verdict.getAttribute('data-promise-held'), 'true', await page.text('gpu-verdict'));
  const rows = await page.getByTestId('gpu-tiles').locator('tbody tr').allTextContents();
  assert.equal(rows.length, 3, rows.join('\n'));
  assert.match(rows[0], /Hillis–Steele0 of 40000 of 63/);
  assert.match(rows[2], /work-efficient0 of 40000 of 63/);
  assert.equal(await page.text('gpu-large-wrong'), '0');
  assert.equal(await page.text('gpu-kept-in-order'), 'yes');
  assert.match(await page.text('gpu-append-count'), /^\d+, the same values: yes$/);
  assert.equal((await page.text('gpu-append-count')).split(',')[0], await page.text('gpu-kept'));
  // Side by side from the first slot where atomicAdd's order parts from the input's.
  const apart = await page.text('gpu-kept-apart');
  const kept = await page.getByTestId('gpu-kept-first').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.cells[1].textContent.split(' ')));
  assert.equal(kept[0].length, 12, apart);
  if (/part/.test(apart)) assert.notDeepEqual(kept[0], kept[1], apart);
  console.log(`# on ${await page.getByTestId('adapter-name').textContent()}: one barrier ${rows[1]}; ` +
    `atomicAdd out of order ${await page.text('gpu-append-out-of-place')}; CPU ${await page.text('cpu-ms')}`);
  assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
  await page.locator('.gpu-panel').screenshot({ path: screenshotPath('scan-gpu') });
  assert.deepEqual(page.errors, []);
});

test('GPU: the single pass is exact with its fallback, by workgroup id and by ticket, and without it wherever no look-back gave up; the reduce-then-scan exact; a copy beside them; over at least 16 tiles', async () => {
  const page = await LessonPage.open(site, 'scan', '&invocations=40000&workgroup=256');
  await page.gpuReady();
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-verdict').waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-promise-held'), 'true', await page.text('gpu-verdict'));
  // 40,000 values asked for, but the single pass scans at least 16 tiles of 8,192, so that tiles look back.
  assert.equal(await page.text('gpu-single-tiles'), '131072 in 16 tiles of 8192');
  const withFallback = await page.text('gpu-single-wrong');
  assert.match(withFallback, /^0 of 131072 wrong; \d+ fallback\(s\), 0 give-up\(s\)$/);
  assert.match(await page.text('gpu-single-tickets'), /^0 of 131072 wrong; \d+ fallback\(s\), 0 give-up\(s\)$/);
  assert.match(await page.text('gpu-reduce-then-scan'), /^0 of 131072 wrong; (.*% of the copy|no timestamps)/);
  assert.match(await page.text('gpu-single-tickets-speed'), /% of the copy|no timestamps/);
  const without = await page.text('gpu-single-no-fallback');
  const [, wrong, , giveUps] = without.match(/^(\d+) of 131072 wrong; (\d+) fallback\(s\), (\d+) give-up\(s\)$/);
  if (giveUps === '0') assert.equal(wrong, '0', without);
  // Sixteen tiles: every one but tile 0 looked back at least once, in each of 10 repeats.
  const looks = await page.getByTestId('gpu-single-looks').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Number(tr.cells[1].textContent)));
  assert.equal(looks.reduce((a, b) => a + b, 0), 15 * 10, looks.join(' '));
  // The three dispatches ran over the 40,000 values asked for: no share of a copy of another size.
  assert.match(await page.text('gpu-three-speed'), /over the 40000 values above|no timestamps/);
  assert.match(await page.text('gpu-copy-speed'), /B\/s|no timestamps/);
  assert.match(await page.text('gpu-single-speed'), /% of the copy|no timestamps/);
  console.log(`# single pass: ${await page.text('gpu-single-speed')}; three dispatches: ${await page.text('gpu-three-speed')}; copy: ${await page.text('gpu-copy-speed')}; without the fallback: ${without}`);
  assert.equal(await page.getByTestId('measured-h100').locator('table').count(), 2);
  // The H200's figures: a row a size CUB was timed at, the paragraph's figures filled in from the file.
  const h200 = page.getByTestId('measured-h200');
  assert.match(await h200.locator('summary').textContent(), /H200/);
  assert.equal(await page.getByTestId('measured-h200-table').locator('tbody tr').count(), 4);
  const words = await page.getByTestId('measured-h200-words').textContent();
  assert.doesNotMatch(words, /[{}]/, words);
  assert.match(words, /At 16,777,216 values the single pass ran at [\d,]+ GB\/s, \d+ % of a copy/, words);
  assert.deepEqual(page.errors, []);
});

test('GPU: a tile that is no power of two is refused with a reason, and the next run works', async () => {
  const page = await LessonPage.open(site, 'scan', '&invocations=1000&workgroup=48');
  await page.runOnGpu();
  assert.match(await page.text('gpu-error'), /power of two from 2 to 1024, not 48/);
  await page.getByTestId('gpu-workgroup').fill('32');
  await page.runOnGpu();
  await page.getByTestId('gpu-verdict').waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  assert.deepEqual(page.errors, []);
});
