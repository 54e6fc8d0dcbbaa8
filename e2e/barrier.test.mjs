// The barrier lesson: in the model the barrier releases everyone together and every read is
// right; without it a serial order reads stale cells; inside a branch half wait until the rest have ended. On the
// GPU: no stale read with the barrier, reads right or stale without, and the browser's own
// refusal of a barrier in non-uniform control flow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();


test('model: the barrier releases all at once; without it serial reads stale; in a branch it sticks', async () => {
  const page = await LessonPage.open(site, 'barrier', '&threads=4&schedule=round-robin');
  for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
  assert.match(await page.text('narration'), /barrier/);
  await page.keyboard.press('End');
  assert.match(await page.text('model-outcome'), /4 of 4 threads read their neighbour's value; 0 read/);
  await page.getByTestId('variant-without').click();
  await page.getByTestId('schedule').selectOption('serial');
  // The switches keep the step (the end); Reset runs the serial schedule from the start.
  await page.getByTestId('model-reset').click();
  await page.keyboard.press('End');
  assert.match(await page.text('model-outcome'), /1 of 4 threads read their neighbour's value; 3 read/);
  await page.getByTestId('variant-in-branch').click();
  await page.keyboard.press('End');
  assert.match(await page.text('model-outcome'), /^Let go only at the end: thread\(s\) 0, 1 waited at a barrier the others skipped/);
  assert.deepEqual(page.errors, []);
});

test('GPU with the barrier: every read right, every arrival before every departure', async () => {
  const page = await LessonPage.open(site, 'barrier', '&variant=with&invocations=4096&workgroup=64');
  await page.runOnGpu();
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  assert.equal(await page.text('gpu-stale'), '0');
  assert.equal(await page.text('gpu-ordered'), '64 of 64');
  // The replay: step through the tickets, the count climbs to 64, the barrier releases.
  assert.match(await page.text('tickets-counts'), /^Arrived 0 of 64 · left 0 · barrier holding$/);
  for (let i = 0; i < 3; i++) await page.getByTestId('tickets-step').click();
  assert.match(await page.text('tickets-narration'), /^Ticket 2: lane \d+ arrives \(3 of 64\) and waits\.$/);
  // The same tickets in the scene: three lanes at the gate, of 64.
  const gate = page.getByTestId('tickets-scene').getByTestId('scene-gate');
  assert.equal(await gate.getAttribute('data-arrived'), '3');
  assert.equal(await gate.getAttribute('data-of'), '64');
  const tickets = page.getByTestId('tickets-timeline');
  assert.equal(await tickets.locator('[data-step] .tl-barrier').count(), 3, 'three arrivals drawn');
  await page.getByTestId('tickets-scrub').fill('64');
  assert.match(await page.text('tickets-narration'), /\(64 of 64\); the last one, so the barrier releases\.$/);
  assert.equal(await page.text('tickets-counts'), 'Arrived 64 of 64 · left 0 · barrier released');
  assert.match(await gate.getAttribute('class'), /open/, 'the last arrival opens the gate');
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('barrier-ticket-replay') });
  await page.getByTestId('tickets-scrub').fill('128');
  assert.equal(await tickets.locator('[data-step]').count(), 128);
  assert.equal(await tickets.locator('.tl-barrier.release').count(), 1, 'the 64th arrival opens the barrier');
  assert.equal(await tickets.locator('.tl-depart').count(), 64, 'then every lane leaves');
  // In ticket order every arrival comes before every departure.
  const kinds = await tickets.locator('[data-step]').evaluateAll((steps) => steps.map((s) => (s.querySelector('.tl-depart') ? 'D' : 'A')));
  assert.equal(kinds.join(''), 'A'.repeat(64) + 'D'.repeat(64));
  assert.match(await page.getByTestId('measured-h100').first().locator('summary').textContent(), /H100/);
  assert.equal(await page.getByTestId('measured-h100').count(), 3, 'the barrier figures, the storage-buffer figures and what a barrier costs');
  assert.deepEqual(page.errors, []);
});

test('GPU without the barrier: reads are right or stale, and where they were is counted', async () => {
  const page = await LessonPage.open(site, 'barrier', '&variant=without&invocations=1024&workgroup=64');
  await page.runOnGpu();
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  const [right, stale] = [Number(await page.text('gpu-right')), Number(await page.text('gpu-stale'))];
  assert.equal(right + stale, 1024);
  console.log(`# without a barrier on ${await page.getByTestId('adapter-name').textContent()}: ${stale} stale, ` +
    `${await page.text('gpu-stale-within')} within a group of 4; ${await page.text('gpu-ordered')} workgroups ordered; ` +
    `${await page.text('gpu-whole-tickets')} with each ticket once`);
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('barrier-without') });
  assert.deepEqual(page.errors, []);
});

test('GPU, barrier inside a branch: the browser refuses the kernel and says where and why', async () => {
  const page = await LessonPage.open(site, 'barrier', '&variant=in-branch');
  await page.runOnGpu();
  const message = await page.text('gpu-error');
  assert.match(message, /barrier_in_branch\.wgsl:\d+:\d+/, message);
  assert.match(message, /uniform/, message);
  console.log(`# ${message.split('\n')[0].slice(0, 160)}`);
  await page.locator('.gpu-panel').screenshot({ path: screenshotPath('barrier-in-branch-refused') });
  // The page stays usable: the model and a correct kernel still run.
  await page.getByTestId('variant-with').click();
  await page.runOnGpu();
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true');
  assert.equal(await page.getByTestId('gpu-status').getAttribute('data-state'), 'ready');
});

test('storage buffers: seen within a workgroup and after a dispatch, not promised across workgroups', async () => {
  const page = await LessonPage.open(site, 'barrier', '&invocations=16384&workgroup=64');
  await waitForGpu(page);
  await page.getByTestId('across-run').click();
  await page.getByTestId('across-verdict').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('across-verdict').getAttribute('data-ok'), 'true', await page.text('across-verdict'));
  const rows = await page.getByTestId('across-table').locator('tbody tr').allTextContents();
  assert.equal(rows.length, 3);
  assert.match(rows[0], /0 of 16384$/);
  assert.match(rows[2], /0 of 16384$/);
  console.log(`# across workgroups in one dispatch on ${await page.getByTestId('adapter-name').textContent()}: ${rows[1].match(/(\d+) of 16384$/)[1]} stale`);
  await page.locator('.gpu-panel').screenshot({ path: screenshotPath('barrier-across') });
  assert.deepEqual(page.errors, []);
});

test('what a barrier costs: the run with barriers is exact, both ways are timed, and one barrier is worked out from them', async () => {
  const page = await LessonPage.open(site, 'barrier');
  await waitForGpu(page);
  await page.getByTestId('cost-run').click();
  await page.getByTestId('cost-verdict').waitFor({ timeout: 120_000 });
  assert.equal(await page.getByTestId('cost-verdict').getAttribute('data-ok'), 'true', await page.text('cost-verdict'));
  const rows = await page.getByTestId('cost-table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => r[0]), ['1', '16']);
  // Timed both ways where the adapter has timestamps; the cost is whatever this GPU gave.
  for (const r of rows) assert.match(r.slice(1).join(' | '), /^(\d+\.\d{3} ms \| \d+\.\d{3} ms \| (\d+\.\d ns|none measurable.*)|no timestamps \| no timestamps \| —)$/, r.join(' | '));
  console.log(`# barrier cost on ${await page.getByTestId('adapter-name').textContent()}: ${rows.map((r) => `${r[0]} workgroup(s): ${r[3]}`).join('; ')}`);
  assert.equal(await page.getByTestId('measured-h100').count() > 0, true);
  await page.locator('.gpu-panel').screenshot({ path: screenshotPath('barrier-cost') });
  assert.deepEqual(page.errors, []);
});
