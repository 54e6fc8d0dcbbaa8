// Readable on a phone, in dark mode, with reduced motion; every control reachable by Tab
// with a visible focus ring; the subgroups and scan tables fit a phone's screen with no
// sideways scroll of their own. (Every lesson fitting a phone after a GPU run is checked in the
// one pass over every lesson of e2e/hosting.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage, screenshotPath } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();
const PHONE = { viewport: { width: 375, height: 812 }, colorScheme: 'dark', reducedMotion: 'reduce' };

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Every table under `selector`, its folded figures opened first: how far it reaches past its
 * own box (the wrapper that would scroll it sideways) and past the screen, where each header
 * ends, and the size of its text. */
async function tablesOnScreen(page, selector) {
  await page.evaluate(() => document.querySelectorAll('details.measured').forEach((d) => { d.open = true; }));
  return page.evaluate((selector) => [...document.querySelectorAll(selector)].map((table) => {
    const box = table.parentElement.classList.contains('returned-wrap') ? table.parentElement : table;
    const cells = [...table.querySelectorAll('th, td')].filter((c) => c.textContent.trim());
    return {
      id: table.dataset.testid ?? [...table.querySelectorAll('th')].map((th) => th.textContent).join(' | '),
      scrolls: box.scrollWidth - box.clientWidth,
      past: Math.ceil(table.getBoundingClientRect().right - window.innerWidth),
      headers: [...table.querySelectorAll('th')].map((th) => ({ text: th.textContent, right: th.getBoundingClientRect().right })),
      px: cells.map((c) => parseFloat(getComputedStyle(c).fontSize)),
    };
  }), selector);
}

/** Each table that scrolls sideways or reaches past the screen, and whether the text of all of
 * them reads: at least 11 px at the median, 9 px at the smallest. */
function tableProblems(tables, width) {
  const problems = [];
  for (const t of tables) {
    if (t.scrolls > 0) problems.push(`${t.id}: ${t.scrolls}px behind a sideways scroll`);
    if (t.past > 0) problems.push(`${t.id}: ${t.past}px past the screen`);
    for (const h of t.headers) if (h.right > width) problems.push(`${t.id}: its "${h.text}" column is off the screen`);
  }
  const px = tables.flatMap((t) => t.px);
  if (median(px) < 11) problems.push(`table text ${median(px)} px at the median (< 11)`);
  if (Math.min(...px) < 9) problems.push(`table text ${Math.min(...px)} px at its smallest (< 9)`);
  return problems;
}

test('a 375-px phone in dark mode: nothing wider than the screen', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race`, {
    viewport: { width: 375, height: 812 },
    colorScheme: 'dark',
    reducedMotion: 'reduce',
  });
  await page.getByTestId('model-player').waitFor();
  await page.getByTestId('model-step').click();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(background, 'rgb(251, 250, 247)', 'dark scheme applied');
  const transition = await page.evaluate(() => getComputedStyle(document.querySelector('.lane')).transitionDuration);
  assert.match(transition, /^0s/, 'no transitions under reduced motion');
  await page.screenshot({ path: screenshotPath('race-phone-dark'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('the atomic-ops setup works from the keyboard alone', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=atomic-ops`);
  await page.getByTestId('model-player').waitFor();
  await page.getByTestId('atomic-op').focus();
  await page.keyboard.press('ArrowDown'); // add → sub
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab'); // type, initial value, operands
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'atomic-operands');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('9,1');
  await page.keyboard.press('Tab');
  await page.waitForFunction(() => location.search.includes('operands=9,1'));
  assert.match(page.url(), /op=sub/);
  await page.keyboard.press('End');
  assert.equal((await page.getByTestId('model-cells.as_u32').textContent()).trim(), String(2 ** 32 - 10), '0 - 9 - 1 wraps on u32');
  assert.deepEqual(page.errors, []);
});

test('Tab reaches the controls, and focus is visible', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race`);
  await page.getByTestId('model-player').waitFor();
  const seen = new Set();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { id: el.dataset.testid ?? el.tagName, outline: style.outlineStyle, width: style.outlineWidth };
    });
    seen.add(info.id);
    if (info.id === 'model-step' && !seen.has('stepped')) {
      seen.add('stepped');
      assert.equal(info.outline, 'solid');
      assert.notEqual(info.width, '0px');
      await page.keyboard.press('Enter');
    }
  }
  for (const id of ['variant-racy', 'variant-atomic', 'copy-link', 'model-threads', 'schedule', 'model-step', 'model-play', 'model-scrub',
    'model-speed', 'gpu-invocations', 'gpu-workgroup', 'gpu-run', 'gpu-run-100', 'replay-record']) {
    assert.ok(seen.has(id), `${id} not reached by Tab (reached: ${[...seen].join(', ')})`);
  }
  assert.match(await page.getByTestId('step-index').textContent(), /step 1 \//);
  assert.deepEqual(page.errors, []);
});

test('each step is narrated in a live region, and a wide lockstep tick is summed up', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=race&threads=64`);
  await page.getByTestId('model-player').waitFor();
  const narration = page.getByTestId('narration');
  assert.equal(await narration.getAttribute('aria-live'), 'polite');
  await page.keyboard.press('ArrowRight');
  assert.equal(
    (await narration.textContent()).trim(),
    '64 threads move together: thread 0 loads 0 from counter; thread 1 loads 0 from counter; thread 2 loads 0 from counter; and 61 more',
  );
  // From here round-robin takes over: one thread at a time, starting again at thread 0.
  await page.getByTestId('schedule').selectOption('round-robin');
  await page.getByTestId('model-step').click();
  assert.equal((await narration.textContent()).trim(), 'thread 0 stores 1 to counter');
  await page.locator('.model-panel').screenshot({ path: screenshotPath('race-64-lanes') });
  assert.deepEqual(page.errors, []);
});

test('subgroups on a 375-px phone: every table of the GPU run and of the H100 figures fits the screen, "promised" included', async () => {
  const page = await LessonPage.open(site, 'subgroups', '&invocations=4096&workgroup=64', PHONE);
  await page.runOnGpu();
  assert.equal(await page.getByTestId('gpu-report').getAttribute('data-partial'), 'false', 'the whole run reported');
  const tables = await tablesOnScreen(page, '.gpu-panel table');
  const ids = tables.map((t) => t.id);
  for (const id of ['gpu-neighbours', 'gpu-reductions', 'gpu-compactions', 'measured-folklore', 'measured-reduce-speed', 'measured-compact-speed']) {
    assert.ok(ids.includes(id), `${id} among the tables (${ids.join(', ')})`);
  }
  assert.ok(tables.find((t) => t.id === 'gpu-reductions').headers.some((h) => h.text === 'promised'));
  assert.deepEqual(tableProblems(tables, 375), []);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`);
  await page.locator('.gpu-panel').screenshot({ path: screenshotPath('subgroups-gpu-phone-dark') });
  assert.deepEqual(page.errors, []);
});

test('scan on a 375-px phone: the tables of the GPU run fit the screen, "promised" included', async () => {
  const page = await LessonPage.open(site, 'scan', '&invocations=4000&workgroup=64', PHONE);
  await page.runOnGpu();
  await page.getByTestId('gpu-verdict').waitFor({ timeout: 120_000 });
  const tables = await tablesOnScreen(page, '[data-testid=gpu-report] table');
  assert.ok(tables.some((t) => t.id === 'gpu-tiles' && t.headers.some((h) => h.text === 'promised')), tables.map((t) => t.id).join(', '));
  assert.deepEqual(tableProblems(tables, 375), []);
  assert.deepEqual(page.errors, []);
});

// The single pass's lanes hold eight registers (tile, sum, at, flag, polls, before, part, old):
// about 510 px in one row beside the thread's name and its mark, where a phone's panel has
// about 334. The scene wraps them onto more rows rather than scroll.
test('scan on a 375-px phone: the single pass\'s scene shows every register with no sideways scroll', async () => {
  const page = await LessonPage.open(site, 'scan', '&variant=single-pass', PHONE);
  await page.getByTestId('scene').first().scrollIntoViewIfNeeded();
  // The scene lays itself out again once its observer has measured its panel.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))));
  const scene = await page.evaluate(() => {
    const box = document.querySelector('[data-testid=scene]');
    const right = box.getBoundingClientRect().right;
    return {
      scrolls: box.scrollWidth - box.clientWidth,
      hidden: [...box.querySelectorAll('svg text.header')].filter((t) => t.getBoundingClientRect().right > right).map((t) => t.textContent),
    };
  });
  assert.equal(scene.scrolls, 0, `the scene scrolls ${scene.scrolls}px sideways; out of sight: ${scene.hidden.join(', ')}`);
  assert.deepEqual(scene.hidden, []);
  await page.getByTestId('scene').first().screenshot({ path: screenshotPath('scan-single-pass-phone') });
  assert.deepEqual(page.errors, []);
});
