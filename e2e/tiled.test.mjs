// The tiled-multiply lesson: the model's tile is right with both barriers; without either,
// lockstep hides the bug and the serial schedule shows it. On the GPU: with both barriers every
// cell of every run equals the CPU's product; without one, the wrong cells are counted and
// marked, whatever their number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();


test('model: both barriers give the product; without one, lockstep hides it and serial shows it', async () => {
  const page = await LessonPage.open(site, 'tiled', '');
  assert.equal(await page.getByTestId('scene').locator('g.matrix').count(), 5, 'a, b, the two tiles and c drawn as grids');
  await page.keyboard.press('End');
  assert.equal(await page.text('model-outcome'), 'Finished: all 16 cells of the tile equal the product.');
  for (const variant of ['without-first', 'without-second']) {
    await page.getByTestId(`variant-${variant}`).click();
    await page.getByTestId('schedule').selectOption('lockstep');
    // The variant came in at the step the run stood on, its end: Reset runs lockstep from the start.
    await page.getByTestId('model-reset').click();
    await page.keyboard.press('End');
    assert.equal(await page.text('model-outcome'), 'Finished: all 16 cells of the tile equal the product.', `${variant} in lockstep`);
    // A schedule applies from where the run stands: back to the start, then one thread at a time.
    await page.keyboard.press('r');
    await page.getByTestId('schedule').selectOption('serial');
    await page.keyboard.press('End');
    assert.match(await page.text('model-outcome'), /^Finished with \d+ wrong cell\(s\): c\[\d\]\[\d\] = /, variant);
  }
  await page.waitForFunction(() => location.search.includes('variant=without-second'));
  assert.deepEqual(page.errors, []);
});

test('GPU with both barriers: every cell of 100 runs is the product', async () => {
  const page = await LessonPage.open(site, 'tiled', '&variant=both');
  await page.runOnGpu('gpu-run-100');
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
  assert.equal(await page.text('gpu-runs-wrong'), '0 of 100');
  assert.equal(await page.getByTestId('gpu-product').locator('td').count(), 64);
  assert.equal(await page.getByTestId('gpu-product').locator('td.marked').count(), 0);
  assert.match(await page.getByTestId('measured-h100').locator('summary').textContent(), /H100/);
  assert.deepEqual(page.errors, []);
});

test('GPU without a barrier: wrong cells are counted and marked, at 8 and at 64', async () => {
  for (const variant of ['without-first', 'without-second']) {
    const page = await LessonPage.open(site, 'tiled', `&variant=${variant}`);
    await page.runOnGpu();
    assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', await page.text('gpu-verdict'));
    const wrong = Number(await page.getByTestId('gpu-wrong').getAttribute('data-raw'));
    assert.equal(await page.getByTestId('gpu-product').locator('td.marked').count(), wrong);
    await page.getByTestId('tiled-n').selectOption('64');
    await page.getByTestId('tiled-tile').selectOption('16');
    await page.runOnGpu();
    const wide = Number(await page.getByTestId('gpu-wrong').getAttribute('data-raw'));
    console.log(`# ${variant} on ${await page.getByTestId('adapter-name').textContent()}: ${wrong} of 64 cells wrong at 8/4, ${wide} of 4096 at 64/16`);
    if (variant === 'without-first') await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('tiled-without-first') });
    await page.getByTestId('tiled-n').selectOption('8');
    await page.getByTestId('tiled-tile').selectOption('4');
    await page.runOnGpu();
    if (variant === 'without-first') await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('tiled-without-first-8') });
    assert.deepEqual(page.errors, []);
  }
});

test('a tile wider than the matrix is refused with a message, and the page goes on', async () => {
  const page = await LessonPage.open(site, 'tiled', '');
  await page.showGpu();
  await page.getByTestId('tiled-tile').selectOption('16');
  await page.runOnGpu();
  assert.match(await page.text('gpu-error'), /matrix width 8 is narrower than one 16-wide tile/);
  await page.getByTestId('tiled-tile').selectOption('4');
  await page.runOnGpu();
  assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true');
  await page.locator('.lesson-grid').screenshot({ path: screenshotPath('tiled-model') });
  assert.deepEqual(page.errors, []);
});
