// The ticket lesson: the model hands out each ticket once under any schedule, and the real
// kernel's tickets are exactly 0..n-1, each once, in whatever order the GPU chose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();


test('model: a random schedule by keyboard, every ticket handed out once', async () => {
  const page = await LessonPage.open(site, 'atomic-counter', '&threads=5&schedule=random&seed=11');
  await page.keyboard.press('End');
  const tickets = [];
  for (let t = 0; t < 5; t++) tickets.push(Number(await page.text(`model-tickets[${t}]`)));
  assert.deepEqual([...tickets].sort(), [0, 1, 2, 3, 4]);
  assert.equal(await page.text('model-next'), '5');
  assert.match(await page.text('model-outcome'), /tickets 0 to 4 went to t\d, t\d, t\d, t\d, t\d — one each/);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert.match(await page.text('narration'), /thread \d atomically adds to next: it was 0, now 1/);
  assert.deepEqual(page.errors, []);
});

test('model: lockstep by mouse, lane order decides', async () => {
  const page = await LessonPage.open(site, 'atomic-counter', '&threads=3');
  await page.getByTestId('model-step').click();
  await page.getByTestId('model-step').click();
  assert.deepEqual(
    [await page.text('model-tickets[0]'), await page.text('model-tickets[1]'), await page.text('model-tickets[2]')],
    ['0', '1', '2'],
  );
  assert.deepEqual(page.errors, []);
});

test('GPU: 4096 tickets are exactly 0..4095, drawn as a grid', async () => {
  const page = await LessonPage.open(site, 'atomic-counter', '&invocations=4096&workgroup=64');
  await waitForGpu(page);
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-report').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  assert.equal(await page.text('gpu-observed'), '4096');
  const tickets = (await page.getByTestId('gpu-tickets').textContent()).split(',').map(Number);
  assert.equal(tickets.length, 4096);
  assert.deepEqual([...tickets].sort((a, b) => a - b), [...Array(4096).keys()], 'a permutation of 0..4095');
  assert.equal(await page.locator('[data-testid=ticket-grid] svg[role=img] rect').count(), 4096);
  // The first 64 invocations in the timeline, one read-modify-write per step, in ticket order.
  const timeline = page.getByTestId('tickets-timeline');
  assert.equal(await timeline.locator('[data-step]').count(), 64);
  assert.equal(await timeline.locator('.tl-rmw').count(), 64);
  assert.equal(await timeline.locator('.tl-lost, .tl-stale').count(), 0, 'atomics lose nothing');
  // And in the scene, at the last step: each of the 64 holds the ticket it recorded (64 lanes
  // are compact: their values are painted, and kept in each register box's data-value).
  const scene = page.getByTestId('tickets-scene');
  await scene.getByTestId('scene-show-all').click();
  assert.equal(await scene.locator('[data-testid^=scene-lane-]').count(), 64);
  for (const row of [0, 17, 63]) {
    assert.equal(Number(await scene.getByTestId(`lane-${row}-ticket`).getAttribute('data-value')), tickets[row], `invocation ${row}`);
  }
  console.log(`# ${await page.getByTestId('adapter-name').textContent()}: whole workgroups ${await page.text('gpu-whole-workgroups')}, lane order ${await page.text('gpu-lane-order')}`);
  assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('tickets-gpu') });
  assert.deepEqual(page.errors, []);
});
