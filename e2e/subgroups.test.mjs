// Subgroups: in the model, subgroupAdd gives each subgroup its own sum, inside an if only the
// kept values, and the ballot's mask is written one way (lane 0 first) wherever it is shown. On
// the GPU (SwiftShader: subgroups of 4) the page asks for the feature itself, reads the size back
// from the kernel, and every promise holds; stale neighbour reads and the last-warp reduction
// are counted, never asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

async function records(page, n = 8) {
  return Promise.all([...Array(n).keys()].map((i) => page.text(`model-records[${i}].total`).then(Number)));
}

// The ballot's masks at eight threads in subgroups of four, lane 0 first: 3 1 4 1 keeps lane 2
// alone, 5 9 2 6 lanes 0, 1 and 3. The GPU's integers, lane 0 rightmost, would read 0100 and 1011.
const MASKS = ['0010', '1101'];

/** Every run of four or more 0s and 1s anywhere on the page: its text (the scene's SVG
 * included) and the labels and titles it gives. A time such as "took 1010 ms" is no mask. */
async function binaryRuns(page) {
  return page.evaluate(() => {
    const said = [document.body.textContent];
    for (const el of document.querySelectorAll('[aria-label], [title], [data-value]')) {
      said.push(...['aria-label', 'title', 'data-value'].map((a) => el.getAttribute(a) ?? ''));
    }
    return said.flatMap((s) => s.match(/(?<![\w.,])[01]{4,}(?![\w.,])(?!\s*(?:ms|µs|s)\b)/g) ?? []);
  });
}

test('model: each subgroup gets its own sum; inside the if only the kept values; the ballot shows its bits', async () => {
  const page = await LessonPage.open(site, 'subgroups', '&schedule=serial');
  await page.toEnd();
  assert.deepEqual(await records(page), [9, 9, 9, 9, 22, 22, 22, 22]);
  assert.match(await page.text('model-outcome'), /own subgroup's sum/);
  await page.getByTestId('subgroup-8').click();
  await page.toEnd();
  assert.deepEqual(await records(page), [31, 31, 31, 31, 31, 31, 31, 31], 'one subgroup of eight');
  await page.getByTestId('subgroup-4').click();
  await page.getByTestId('variant-divergent').click();
  await page.toEnd();
  assert.deepEqual(await records(page), [0, 0, 4, 0, 20, 20, 0, 20]);
  await page.getByTestId('variant-ballot').click();
  await page.toEnd();
  assert.equal(await page.getByTestId('ballot-1').getAttribute('aria-label'), 'ballot mask, lane 0 first: 1101');
  assert.match(await page.text('model-outcome'), /4 values of 4 or more kept \(4 5 9 6\), with one atomicAdd per subgroup \(2 in all\)/);
  await page.locator('.model-panel').screenshot({ path: screenshotPath('subgroups-ballot') });
  assert.deepEqual(page.errors, []);
  const link = await LessonPage.open(site, 'subgroups', '&variant=butterfly&subgroup=8&schedule=lockstep');
  await link.toEnd();
  assert.deepEqual(await records(link), [31, 31, 31, 31, 31, 31, 31, 31]);
  const bad = await LessonPage.open(site, 'subgroups', '&subgroup=6');
  assert.match(await bad.text('param-error'), /4, 8 or 32 lanes/);
});

test('model: every ballot mask on the page is written one way, lane 0 first, and says so', async () => {
  const page = await LessonPage.open(site, 'subgroups', '&variant=ballot&subgroup=4&schedule=serial');
  // Serial: subgroup 0's fourth lane completes the first ballot, and the narration says its mask.
  for (let i = 0; i < 40 && !/subgroupBallot together/.test(await page.text('narration')); i++) await page.step();
  assert.match(await page.text('narration'), /^subgroup 0's 4 active lane\(s\) take subgroupBallot together: the mask is 0010 \(lane 0 first\)$/);
  await page.toEnd();
  // The picture under the scene: its digits, its label and its accessible name.
  for (const [g, mask] of MASKS.entries()) {
    const ballot = page.getByTestId(`ballot-${g}`);
    assert.equal(await ballot.getAttribute('aria-label'), `ballot mask, lane 0 first: ${mask}`);
    assert.equal((await ballot.locator('.bit').allTextContents()).join(''), mask);
    assert.match(await ballot.textContent(), /^mask, lane 0 first:/);
  }
  // Each lane's mask register, in the state as text (the scene draws the same text).
  await page.locator('details.as-text summary').click();
  const asText = page.locator('details.as-text');
  for (let t = 0; t < 8; t++) {
    assert.equal((await asText.getByTestId(`lane-${t}-ballot`).textContent()).trim(), MASKS[Math.floor(t / 4)], `thread ${t}'s mask, as text`);
    assert.equal((await page.getByTestId('scene').getByTestId(`lane-${t}-ballot`).textContent()).trim(), MASKS[Math.floor(t / 4)], `thread ${t}'s mask, in the scene`);
  }
  const runs = await binaryRuns(page);
  assert.ok(MASKS.every((m) => runs.includes(m)), `masks on the page: ${runs.join(', ')}`);
  assert.deepEqual(runs.filter((r) => !MASKS.includes(r)), [], 'a mask written another way');
  assert.deepEqual(page.errors, []);
});

test('GPU: the size is read back, every promise holds, the folklore is counted', async () => {
  // The model shows the ballot's masks, so that the page's every mask, both halves, is checked
  // against the one form after the run.
  const page = await LessonPage.open(site, 'subgroups', '&invocations=4096&workgroup=64&variant=ballot&subgroup=4');
  await page.toEnd();
  await page.gpuReady();
  assert.equal(await page.getByTestId('no-subgroups').count(), 0, 'this Chromium offers subgroups');
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-verdict').waitFor({ timeout: 120_000 });
  const verdict = page.getByTestId('gpu-verdict');
  assert.equal(await verdict.getAttribute('data-promise-held'), 'true', await page.text('gpu-verdict'));
  const size = Number(await page.getByTestId('gpu-subgroup-size').getAttribute('data-raw'));
  assert.ok([4, 8, 16, 32, 64, 128].includes(size), `size ${size}`);
  assert.equal(await page.text('gpu-add-wrong'), '0 of 4096');
  assert.equal(await page.text('gpu-butterfly-wrong'), '0 of 4096');
  const reductions = await page.getByTestId('gpu-reductions').locator('tbody tr').allTextContents();
  assert.equal(reductions.length, 3);
  assert.match(reductions[0], /^tree, a barrier per level0 of 64/);
  assert.match(reductions[1], /^subgroupAdd, one barrier0 of 64/);
  const compactions = await page.getByTestId('gpu-compactions').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(compactions[0][4], 'yes');
  assert.equal(compactions[1][4], 'yes');
  assert.equal(Number(compactions[0][2]), 4096 / size, 'one atomicAdd per subgroup');
  assert.equal(Number(compactions[1][2]), Number(compactions[1][1]), 'one per kept value');
  const runs = await binaryRuns(page);
  assert.deepEqual(runs.filter((r) => !MASKS.includes(r)), [], 'a mask written another way, model or GPU half');
  await page.getByTestId('gpu-report').screenshot({ path: screenshotPath('subgroups-gpu') });
  console.log(`# on ${await page.getByTestId('adapter-name').textContent()}: subgroups of ${size}; ` +
    `neighbours ${(await page.getByTestId('gpu-neighbours').locator('tbody tr').allTextContents()).join(' | ')}; last warp ${reductions[2]}`);
  assert.deepEqual(page.errors, []);
});
