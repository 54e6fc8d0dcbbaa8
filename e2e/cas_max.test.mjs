// The compare-exchange maximum: the model's threads retry when another swapped first, and
// the real kernel's result is exactly the true maximum, bits and all, for both input sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage, screenshotPath } from './support/browser.mjs';

const site = useSite();
const text = async (page, id) => (await page.getByTestId(id).textContent()).trim();

async function open(query) {
  const page = await openPage(site.browser, `${site.url}?lesson=cas-max${query}`);
  await page.getByTestId('model-player').waitFor();
  return page;
}

async function retriesInModel(page, n) {
  let sum = 0;
  for (let t = 0; t < n; t++) sum += Number(await text(page, `model-retries[${t}]`));
  return sum;
}

test('model: lockstep makes threads retry, serial does not, and best is the largest input', async () => {
  const page = await open('&threads=4');
  await page.keyboard.press('End');
  const inputs = [];
  for (let t = 0; t < 4; t++) inputs.push(Number(await text(page, `model-input[${t}]`)));
  assert.equal(Number(await text(page, 'model-best')), Math.max(...inputs));
  assert.ok((await retriesInModel(page, 4)) >= 1, 'in lockstep every thread but the first swap fails at least once');
  // Back to the start, then a new schedule from there: the old run's future is dropped.
  await page.getByTestId('model-reset').click();
  await page.getByTestId('schedule').selectOption('serial');
  await page.getByTestId('model-step').click();
  await page.keyboard.press('End');
  assert.equal(await retriesInModel(page, 4), 0, 'one thread at a time: no retries');
  assert.match(await text(page, 'model-outcome'), /best is -?\d+, the largest input; the threads retried 0 time/);
  await page.getByTestId('variant-non-positive').click();
  assert.ok(Number(await text(page, 'model-input[0]')) <= 0);
  assert.deepEqual(page.errors, []);
});

for (const [variant, bits] of [['mixed', null], ['non-positive', '0x00000000']]) {
  test(`GPU, ${variant} inputs: exactly the true maximum, no give-ups`, async () => {
    const page = await open(`&variant=${variant}&invocations=4096&workgroup=64`);
    await page.waitForFunction(() => document.querySelector('[data-testid=gpu-status]')?.dataset.state === 'ready');
    await page.getByTestId('gpu-run').click();
    await page.getByTestId('gpu-report').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await text(page, 'gpu-verdict'));
    assert.equal(await text(page, 'gpu-observed'), await text(page, 'gpu-expected'));
    if (bits) assert.equal(await page.getByTestId('gpu-observed').getAttribute('data-raw'), bits, '+0.0, not -0.0');
    assert.equal(await text(page, 'gpu-gave-up'), '0');
    const retries = (await page.getByTestId('gpu-retry-list').textContent()).split(',').map(Number);
    assert.equal(retries.length, 4096);
    assert.equal(retries.reduce((a, b) => a + b, 0), Number(await text(page, 'gpu-retries')));
    console.log(`# ${variant} on ${await page.getByTestId('adapter-name').textContent()}: ${await text(page, 'gpu-retries')} retries, most ${await text(page, 'gpu-most-retries')}`);
    assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
    await page.getByTestId('gpu-report').screenshot({ path: screenshotPath(`cas-max-${variant}`) });
    assert.deepEqual(page.errors, []);
  });
}
