// The ticket lesson: the model hands out each ticket once under any schedule, and the real
// kernel's tickets are exactly 0..n-1, each once, in whatever order the GPU chose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage, screenshotPath } from './support/browser.mjs';

const site = useSite();

async function open(query) {
  const page = await openPage(site.browser, `${site.url}?lesson=atomic-counter${query}`);
  await page.getByTestId('model-player').waitFor();
  return page;
}

const text = async (page, id) => (await page.getByTestId(id).textContent()).trim();

test('model: a random schedule by keyboard, every ticket handed out once', async () => {
  const page = await open('&threads=5&schedule=random&seed=11');
  await page.keyboard.press('End');
  const tickets = [];
  for (let t = 0; t < 5; t++) tickets.push(Number(await text(page, `model-tickets[${t}]`)));
  assert.deepEqual([...tickets].sort(), [0, 1, 2, 3, 4]);
  assert.equal(await text(page, 'model-next'), '5');
  assert.match(await text(page, 'model-outcome'), /tickets 0 to 4 went to t\d, t\d, t\d, t\d, t\d — one each/);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert.match(await text(page, 'narration'), /thread \d atomically adds to next: it was 0, now 1/);
  assert.deepEqual(page.errors, []);
});

test('model: lockstep by mouse, lane order decides', async () => {
  const page = await open('&threads=3');
  await page.getByTestId('model-step').click();
  await page.getByTestId('model-step').click();
  assert.deepEqual(
    [await text(page, 'model-tickets[0]'), await text(page, 'model-tickets[1]'), await text(page, 'model-tickets[2]')],
    ['0', '1', '2'],
  );
  assert.deepEqual(page.errors, []);
});

test('GPU: 4096 tickets are exactly 0..4095, drawn as a grid', async () => {
  const page = await open('&invocations=4096&workgroup=64');
  await page.waitForFunction(() => document.querySelector('[data-testid=gpu-status]')?.dataset.state === 'ready');
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-report').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await text(page, 'gpu-verdict'));
  assert.equal(await text(page, 'gpu-observed'), '4096');
  const tickets = (await page.getByTestId('gpu-tickets').textContent()).split(',').map(Number);
  assert.equal(tickets.length, 4096);
  assert.deepEqual([...tickets].sort((a, b) => a - b), [...Array(4096).keys()], 'a permutation of 0..4095');
  assert.equal(await page.locator('[data-testid=ticket-grid] svg[role=img] rect').count(), 4096);
  console.log(`# ${await page.getByTestId('adapter-name').textContent()}: whole workgroups ${await text(page, 'gpu-whole-workgroups')}, lane order ${await text(page, 'gpu-lane-order')}`);
  assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('tickets-gpu') });
  assert.deepEqual(page.errors, []);
});
