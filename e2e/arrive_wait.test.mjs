// Arrive, then wait: in the model the hand-built waits release everyone in lockstep and make
// a waiter give up when the others cannot run (serial); the barrier never lets anyone read
// early. On the GPU every invocation is accounted for and the tickets are whole; only the
// barrier's zeros (no give-up, no stale read) are asserted, because only it promises them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath, waitForGpu } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('model: lockstep releases everyone, serial leaves a waiter to give up and read 0', async () => {
  const page = await LessonPage.open(site, 'arrive-wait', '&threads=4&schedule=lockstep');
  await page.keyboard.press('End');
  assert.equal(await page.text('model-phase'), '1', 'the last to arrive opened the phase');
  assert.equal(await page.text('model-arrived'), '0', 'and reset the count for the next');
  assert.match(await page.text('model-outcome'), /all 4 threads waited/);
  // A new variant is stepped to where the old one stood (here its end); the schedule picked
  // then runs it from the start once Reset is pressed.
  await page.getByTestId('variant-latch').click();
  await page.getByTestId('schedule').selectOption('serial');
  await page.getByTestId('model-reset').click();
  await page.keyboard.press('End');
  assert.ok(Number(await page.text('model-gave_up')) >= 1, await page.text('model-outcome'));
  assert.equal(await page.text('model-left'), '0', 'every thread counted the latch down');
  assert.match(await page.text('model-outcome'), /gave up waiting; \d+ read a neighbour's cell before it was written/);
  await page.getByTestId('variant-workgroup-barrier').click();
  await page.keyboard.press('End');
  assert.match(await page.text('model-outcome'), /all 4 threads waited/, 'the barrier holds in any schedule');
  assert.deepEqual(page.errors, []);
});

for (const [variant, invocations, workgroup] of [['split', 64, 64], ['latch', 256, 64], ['workgroup-barrier', 1024, 256]]) {
  test(`GPU, ${variant}, ${invocations}/${workgroup}: everyone released or gave up, and the tickets are whole`, async () => {
    const page = await LessonPage.open(site, 'arrive-wait', `&variant=${variant}&invocations=${invocations}&workgroup=${workgroup}`);
    await waitForGpu(page);
    await page.getByTestId('gpu-run').click();
    await page.getByTestId('gpu-report').waitFor({ timeout: 120_000 });
    const verdict = page.getByTestId('gpu-verdict');
    assert.equal(await verdict.getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
    const [released, gaveUp, stale] = await Promise.all(['gpu-released', 'gpu-gave-up', 'gpu-stale'].map(async (id) => Number(await page.text(id))));
    assert.equal(released + gaveUp, invocations);
    assert.ok(stale <= invocations);
    assert.match(await page.text('gpu-tickets'), /each once/);
    if (variant === 'workgroup-barrier') assert.deepEqual([gaveUp, stale], [0, 0], 'what the barrier promises');
    console.log(`# ${variant} ${invocations}/${workgroup} on ${await page.getByTestId('adapter-name').textContent()}: released ${released}, ` +
      `gave up ${gaveUp}, stale ${stale}, longest wait ${await page.text('gpu-longest')}`);
    assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
    await page.getByTestId('gpu-report').screenshot({ path: screenshotPath(`arrive-wait-${variant}`) });
    assert.deepEqual(page.errors, []);
  });
}
