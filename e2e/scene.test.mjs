// The scene and the timeline: the model drawn as a picture that moves one step forward and
// redraws in place otherwise, no motion at all for a reader who asks for less, marks where a
// lost update and a stale read happen, the barrier's gate counting arrivals, and a timeline
// with a column per step taken that jumps where it is clicked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { screenshotPath } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

test('a step forward moves tokens; back and jumps redraw without motion', async () => {
  const page = await LessonPage.open(site, 'race', '&threads=4&schedule=lockstep');
  const scene = page.getByTestId('scene');
  assert.equal(await scene.locator('svg').getAttribute('role'), 'img');
  assert.match(await scene.locator('svg').getAttribute('aria-label'), /^Step 0 of 2\. 0 thread\(s\) ready|^Step 0 of 2\. 4 thread\(s\) ready/);
  // The slowest speed: a flight of 1.4 s, which a busy machine still paints within.
  await page.getByTestId('model-speed').selectOption('0.5');
  await page.step();
  assert.equal(await scene.getAttribute('data-moving'), 'true');
  const tokens = scene.getByTestId('scene-tokens');
  assert.equal(await tokens.getAttribute('data-tokens'), '4', 'four loads, four tokens');
  // The tokens are painted: mid-flight the canvas over the scene is not blank (with four
  // lanes drawn full size, nothing but tokens is painted on it). Looked at on each frame, for
  // as long as the flight lasts.
  const painted = await tokens.evaluate(
    (canvas) =>
      new Promise((resolve) => {
        const started = performance.now();
        const look = () => {
          const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
          let opaque = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i] > 0) opaque++;
          if (opaque > 100 || performance.now() - started > 1400) resolve(opaque);
          else requestAnimationFrame(look);
        };
        look();
      }),
  );
  assert.ok(painted > 100, `tokens painted mid-flight (${painted} pixels)`);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await scene.getAttribute('data-moving'), 'false');
  assert.equal(await tokens.getAttribute('data-tokens'), '0');
  await page.toEnd();
  assert.equal(await scene.getAttribute('data-moving'), 'false', 'a jump is not a step');
  page.assertNoConsoleErrors();
});

test('with reduced motion nothing travels: only the new state is drawn', async () => {
  const page = await LessonPage.open(site, 'race', '&threads=4&schedule=lockstep', { reducedMotion: 'reduce' });
  await page.step();
  const scene = page.getByTestId('scene');
  assert.equal(await scene.getAttribute('data-moving'), 'false');
  assert.equal(await scene.getByTestId('scene-tokens').getAttribute('data-tokens'), '0');
  assert.equal(await page.text('step-index'), 'step 1 / 2');
  page.assertNoConsoleErrors();
});

test('a stale copy is marked when another thread stores, and the lost update where it lands', async () => {
  // Round robin, two threads: both load 0 (and add, in their registers); thread 0 stores 1,
  // which leaves thread 1's copy stale; thread 1 stores 1 over it, and thread 0's update is lost.
  const page = await LessonPage.open(site, 'race', '&threads=2&schedule=round-robin');
  const scene = page.getByTestId('scene');
  await page.step(2);
  assert.equal(await page.getByTestId('scene-stale-1').count(), 0, 'nothing stale before a store');
  await page.step();
  assert.equal(await page.getByTestId('scene-stale-1').count(), 1, "thread 1's copy went stale when thread 0 stored");
  assert.equal(await scene.locator('.mark.lost').count(), 0);
  await page.step();
  assert.match(await scene.locator('.mark.lost').first().textContent(), /✕ t0 lost/);
  assert.equal(await page.getByTestId('scene-stale-1').count(), 0, 'its store used the stale copy up');
  // The timeline draws the same: a ✕ on thread 1's store, a ring on its load.
  const timeline = page.getByTestId('timeline');
  assert.equal(await timeline.locator('.tl-lost').count(), 1);
  const ring = timeline.locator('.tl-stale');
  assert.equal(await ring.getAttribute('visibility'), 'visible');
  await page.screenshot({ path: screenshotPath('scene-race-lost-update') });
  // Back one step the overwrite (step 3) is still done; back over it, the ring goes, and it
  // comes again with the step forward, one step at a time as over a jump.
  const ringAt = async (keys) => {
    for (const key of keys) await page.page.keyboard.press(key);
    return ring.getAttribute('visibility');
  };
  assert.equal(await ringAt(['ArrowLeft']), 'visible');
  assert.equal(await ringAt(['ArrowLeft']), 'hidden');
  assert.equal(await ringAt(['ArrowRight']), 'visible');
  assert.equal(await ringAt(['Home']), 'hidden');
  assert.equal(await ringAt(['End']), 'visible');
  page.assertNoConsoleErrors();
});

test('the timeline has a column per step taken, and a click jumps there', async () => {
  const page = await LessonPage.open(site, 'race', '&threads=3&schedule=round-robin');
  const timeline = page.getByTestId('timeline');
  assert.equal(await timeline.locator('[data-step]').count(), 0);
  await page.step(5);
  assert.equal(await timeline.locator('[data-step]').count(), 5);
  assert.equal(await timeline.locator('.tl-step.current').getAttribute('data-step'), '5');
  await timeline.locator('[data-step="2"]').click();
  assert.equal(await page.text('step-index'), 'step 2 / 6');
  // The later columns stay drawn, hidden, for the steps forward again.
  const shown = timeline.locator('[data-step]:not([display=none])');
  assert.equal(await shown.count(), 2);
  assert.equal(await timeline.locator('.tl-step.current').getAttribute('data-step'), '2');
  await page.step(2);
  assert.deepEqual(await shown.evaluateAll((columns) => columns.map((c) => c.dataset.step)), ['1', '2', '3', '4']);
  assert.equal(await timeline.locator('.tl-step.current').getAttribute('data-step'), '4');
  await page.step(2);
  assert.equal(await shown.count(), 6, 'a step past the columns drawn adds its own');
  page.assertNoConsoleErrors();
});

test("the barrier's gate counts arrivals and opens on the last", async () => {
  const page = await LessonPage.open(site, 'barrier', '&threads=4&schedule=round-robin');
  const gate = page.getByTestId('scene-gate');
  // Round robin: each thread stores its value (4 steps), takes its arrival ticket (4), then arrives.
  await page.step(9);
  assert.equal(await gate.getAttribute('data-arrived'), '1');
  assert.equal(await gate.locator('.gate-count').textContent(), '1 of 4');
  await page.step(3);
  assert.match(await gate.getAttribute('class'), /open/);
  assert.equal(await gate.locator('.gate-count').textContent(), 'open');
  page.assertNoConsoleErrors();
});

test('64 threads: eight lanes drawn full size and the rest summed up, all of them compact on asking, in light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await LessonPage.open(site, 'race', '&threads=64&schedule=lockstep', { colorScheme });
    await page.step(3);
    const scene = page.getByTestId('scene');
    assert.doesNotMatch(await scene.getAttribute('class'), /compact/);
    assert.equal(await scene.locator('.lane').count(), 8);
    // Lockstep: all 64 loaded, added and stored; the 56 not drawn are said to be done.
    assert.equal(await page.getByTestId('scene-hidden').textContent(), 't8–t63: 56 more, 56 done');
    assert.match(await scene.getByTestId('scene-lane-0').locator('.thread').textContent(), /t0/);
    await scene.screenshot({ path: screenshotPath(`scene-64-few-${colorScheme}`) });
    const toggle = page.getByTestId('scene-show-all');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.match(await scene.getAttribute('class'), /compact/);
    assert.equal(await scene.locator('.lane').count(), 64);
    assert.equal(await page.getByTestId('scene-hidden').count(), 0);
    await scene.screenshot({ path: screenshotPath(`scene-64-${colorScheme}`) });
    await toggle.click();
    assert.equal(await scene.locator('.lane').count(), 8);
    page.assertNoConsoleErrors();
  }
});

test('compact lanes have their values painted, moving or not', async () => {
  // Reduced motion: no token flies, so whatever the canvas shows is the painted registers.
  const page = await LessonPage.open(site, 'race', '&threads=64&schedule=lockstep', { reducedMotion: 'reduce' });
  await page.getByTestId('scene-show-all').click();
  await page.step(2);
  const scene = page.getByTestId('scene');
  const tokens = scene.getByTestId('scene-tokens');
  assert.equal(await tokens.getAttribute('data-tokens'), '0');
  // In lockstep every thread loaded 0 and added one: each register box holds 1.
  const values = await scene.locator('[data-testid$=-value][data-value]').evaluateAll((rs) => rs.map((r) => r.dataset.value));
  assert.deepEqual(values, Array(64).fill('1'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const painted = await tokens.evaluate((canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let opaque = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) opaque++;
    return opaque;
  });
  assert.ok(painted > 64 * 10, `sixty-four values painted (${painted} pixels)`);
  page.assertNoConsoleErrors();
});

test('another variant redraws the lanes with its own instructions', async () => {
  const page = await LessonPage.open(site, 'race', '&threads=2&variant=racy');
  const pc = page.getByTestId('scene-lane-0').locator('.pc');
  assert.match(await pc.textContent(), /atomicLoad/);
  await page.getByTestId('variant-atomic').click();
  assert.match(await pc.textContent(), /atomicAdd/);
  page.assertNoConsoleErrors();
});

test('memory is grouped by where the kernel keeps it: storage buffers, then workgroup memory', async () => {
  const page = await LessonPage.open(site, 'barrier', '&threads=4');
  const scene = page.getByTestId('scene');
  assert.deepEqual(await scene.locator('text.header:not(.reg)').evaluateAll((ts) => ts.map((t) => t.textContent).filter((t) => /memory|buffer/.test(t))),
    ['storage buffer', 'workgroup memory']);
  // `cells` is var<workgroup> in the kernel, `out` a storage buffer: drawn dashed and solid.
  assert.match(await scene.getByTestId('scene-cell-0').getAttribute('class'), /\bworkgroup\b/);
  assert.doesNotMatch(await scene.getByTestId('scene-cell-4').getAttribute('class'), /\bworkgroup\b/);
  const tiled = await LessonPage.open(site, 'tiled', '');
  const captions = await tiled.getByTestId('scene').locator('.matrix .header').allTextContents();
  assert.deepEqual(captions.filter((c) => c.endsWith(' · workgroup')), ['tile_a · workgroup', 'tile_b · workgroup']);
  page.assertNoConsoleErrors();
  tiled.assertNoConsoleErrors();
});
