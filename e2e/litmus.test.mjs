// The litmus lab: each outcome with both verdicts; every preset's kernels compiled by the
// browser's own compiler and run, in both placements, every instance counted and nothing
// forbidden; mistakes point at their line and column; random text never breaks the page; the
// model player steps an interleaving to its outcome; and the message-passing lesson opens its
// test here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { useSite } from './support/fixture.mjs';
import { closePage, openPage, screenshotPath, showGpuPanel } from './support/browser.mjs';
import { LessonPage } from './support/lesson_page.mjs';

const site = useSite();

/** Opens the lab and scrolls to its model and outcome panels, which come with its GPU half as
 * the reader nears them. */
const open = async (query = '') => {
  const page = new LessonPage(await openPage(site.browser, `${site.url}?lesson=litmus${query}`)).asPage();
  await page.locator('.lab-model-panel').scrollIntoViewIfNeeded();
  await page.getByTestId('model-player').waitFor();
  return page;
};
const row = (page, outcome) => page.locator(`[data-testid=litmus-outcomes] tr[data-outcome="${outcome}"]`);
const compiled = async (page) => {
  await showGpuPanel(page);
  await page.waitForFunction(() => ['ok', 'error'].includes(document.querySelector('[data-testid=litmus-compile]')?.dataset.state), null, { timeout: 60_000 });
};

test('message passing: four outcomes, the weak one allowed across workgroups and forbidden by a barrier in one', async () => {
  const page = await open('&preset=mp');
  assert.equal(await page.locator('[data-testid=litmus-outcomes] tbody tr').count(), 4);
  const weak = row(page, 'r0=1 r1=0');
  assert.equal(await weak.getAttribute('data-sc'), 'no');
  assert.equal(await weak.getAttribute('data-wgsl'), 'allowed');
  assert.match(await weak.locator('td.why').textContent(), /a cycle no interleaving can close/);
  assert.equal(await row(page, 'r0=1 r1=1').getAttribute('data-sc'), 'yes');
  await page.getByTestId('litmus-placement').selectOption('same');
  await page.getByTestId('litmus-barrier').selectOption('storage');
  assert.equal(await weak.getAttribute('data-wgsl'), 'forbidden');
  assert.match(await weak.locator('td.why').textContent(), /\S/);
  // The link follows: it reopens the same state.
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-link-pending'));
  assert.match(page.url(), /preset=mp&placement=same&memory=storage&barrier=storage/);
  page.assertNoConsoleErrors();
});

test("the H100's counts stand beside the reader's, for the preset and configuration shown", async () => {
  const report = JSON.parse(fs.readFileSync(new URL('../data/h100-litmus.json', import.meta.url), 'utf8'));
  const col = (name) => report.columns.indexOf(name);
  const page = await open('&preset=mp');
  for (const [placement, barrier] of [['across', 'none'], ['same', 'storage']]) {
    await page.getByTestId('litmus-placement').selectOption(placement);
    await page.getByTestId('litmus-barrier').selectOption(barrier);
    const config = report.rows.find((r) => r[col('preset')] === 'mp' && r[col('placement')] === placement && r[col('memory')] === 'storage' && r[col('barrier')] === barrier);
    const expected = Object.fromEntries(config[col('outcomes')].split('; ').map((o) => { const [name, rest] = o.split(': '); return [name, Number(rest.split(' ')[0])]; }));
    await page.getByTestId('litmus-h100-column').waitFor();
    const cells = await page.locator('[data-testid=litmus-outcomes] tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.dataset.outcome, Number(tr.querySelector('[data-testid=litmus-h100-count]').textContent)]));
    assert.deepEqual(Object.fromEntries(cells), expected, `${placement}, ${barrier}`);
    assert.equal(cells.reduce((a, [, c]) => a + c, 0), config[col('instances')] - config[col('unlisted')]);
  }
  // A test of the reader's own has no H100 figures: no column.
  await page.getByTestId('litmus-text').fill('T0: x=1; y=2 | T1: r0=y; r1=x');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=litmus-outcomes] tbody tr').length > 0 && !document.querySelector('[data-testid=litmus-h100-column]'));
  page.assertNoConsoleErrors();
});

test('counts put in the link come back as "observed on" that GPU beside the reader\'s, and leave when the test changes', async () => {
  const page = await open('&preset=mp');
  await page.gpuReady();
  await compiled(page);
  await page.getByTestId('litmus-dispatches').selectOption('1');
  await page.runOnGpu();
  await page.getByTestId('litmus-share').click();
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-link-pending'));
  const link = page.url();
  assert.match(link, /results=[^&]+%3A\d+,\d+,\d+,\d+$/);
  const mine = await page.locator('[data-testid=litmus-outcomes] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.observed));
  // Another reader opens the link: the counts stand in a column named by the GPU that made them.
  const other = await open(link.slice(link.indexOf('&')));
  await other.getByTestId('litmus-linked-column').waitFor();
  assert.match(await other.getByTestId('litmus-linked-column').textContent(), /^observed on .+ \(from the link\)$/);
  assert.deepEqual(await other.getByTestId('litmus-linked-count').allTextContents(), mine);
  // Another configuration is another experiment: the counts leave the table and the link.
  await other.getByTestId('litmus-placement').selectOption('same');
  assert.equal(await other.getByTestId('litmus-linked-column').count(), 0);
  await other.waitForFunction(() => !document.documentElement.hasAttribute('data-link-pending'));
  assert.doesNotMatch(other.url(), /results=/);
  other.assertNoConsoleErrors();
  // Counts that do not fit the test are refused in words, never shown.
  const wrong = await open('&preset=mp&results=' + encodeURIComponent('Some GPU:1,2,3'));
  assert.match(await wrong.getByTestId('litmus-linked-mismatch').textContent(), /3 counts from Some GPU, but this test has 4 outcomes/);
  const garbled = await openPage(site.browser, `${site.url}?lesson=litmus&preset=mp&results=nonsense`);
  assert.match(await garbled.getByTestId('param-error').textContent(), /results= was ignored: it should read GPU name:count/);
  page.assertNoConsoleErrors();
});

test('a test of thousands of outcomes shows the first 256 at once, and all of them when asked', async () => {
  const text = 'T0: x=1; x=2; y=1 | T1: x=3; r0=x; r1=y | T2: x=4; r2=x; y=1 | T3: x=1; r3=x';
  const page = await open(`&test=${encodeURIComponent(text)}`);
  await page.getByTestId('litmus-outcomes').waitFor();
  const rows = page.locator('[data-testid=litmus-outcomes] tbody tr');
  assert.equal(await rows.count(), 256);
  const all = Number((await page.getByTestId('litmus-outcomes').locator('caption').textContent()).match(/^(\d+) outcomes/)[1]);
  assert.ok(all > 256, `${all} outcomes`);
  await page.getByTestId('litmus-show-every').click();
  await page.waitForFunction((all) => document.querySelectorAll('[data-testid=litmus-outcomes] tbody tr').length === all, all);
  assert.equal(await page.getByTestId('litmus-show-every').count(), 0);
  page.assertNoConsoleErrors();
});

test('every outcome draws its execution graph: the weak one with the cycle no interleaving closes, the forbidden one with the cycle its rule forbids', async () => {
  for (const [colorScheme, width] of [['light', 1280], ['dark', 1280], ['light', 375]]) {
    const page = new LessonPage(await openPage(site.browser, `${site.url}?lesson=litmus&preset=mp`, { colorScheme, viewport: { width, height: 900 } })).asPage();
    await page.locator('.lab-model-panel').scrollIntoViewIfNeeded();
    await page.getByTestId('litmus-outcomes').waitFor();
    // Allowed and weak: T0's two stores in program order, T1 reads y's new value (rf) and
    // then x's old one (fr back to T0's first store): four edges around a cycle, lit.
    await page.getByTestId('litmus-why-r0=1 r1=0').click();
    const graph = page.getByTestId('litmus-graph');
    assert.equal(await graph.getAttribute('data-outcome'), 'r0=1 r1=0');
    const lit = async () => (await graph.locator('.g-edge.lit').evaluateAll((es) => es.map((e) => e.dataset.edge))).sort();
    assert.deepEqual(await lit(), ['fr T1.1 T0.0', 'po T0.0 T0.1', 'po T1.0 T1.1', 'rf T0.1 T1.0']);
    assert.deepEqual(await graph.locator('.g-event text').allTextContents(), ['W x=1', 'W y=1', 'R y=1', 'R x=0']);
    assert.match(await page.getByTestId('litmus-graph-why').innerText(), /T1: r1 = x \(read 0\) reads x before T0: x = 1 writes it \(from-read\).*a cycle no interleaving can close\. No barrier orders/);
    await graph.scrollIntoViewIfNeeded();
    await graph.screenshot({ path: screenshotPath(`litmus-graph-weak-${colorScheme}-${width}`) });
    // The graph fits a phone's panel, or scrolls inside its own box: never the page.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no page overflow');
    // One workgroup, storageBarrier() between the accesses: the same outcome is forbidden, and
    // its cycle runs through the barrier.
    await page.getByTestId('litmus-placement').selectOption('same');
    await page.getByTestId('litmus-barrier').selectOption('storage');
    await page.getByTestId('litmus-why-r0=1 r1=0').click();
    assert.match(await graph.getAttribute('class'), /forbidden/);
    const cycle = await lit();
    assert.ok(cycle.some((e) => e.startsWith('barrier ')), cycle.join(', '));
    assert.match(await page.getByTestId('litmus-graph-why').innerText(), /coherence forbids it/);
    await graph.scrollIntoViewIfNeeded();
    await graph.screenshot({ path: screenshotPath(`litmus-graph-forbidden-${colorScheme}-${width}`) });
    page.assertNoConsoleErrors();
  }
});

/** The outcome rows after a run: what the page counted, with WGSL's verdict on each. */
const observedRows = (page) =>
  page.locator('[data-testid=litmus-outcomes] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({ outcome: tr.dataset.outcome, sc: tr.dataset.sc, wgsl: tr.dataset.wgsl, observed: Number(tr.dataset.observed) })));

test("every preset's kernels compile in the browser and run, in both placements: every instance counted, nothing forbidden", async () => {
  const presets = ['mp', 'sb', 'lb', 's', 'r', '2+2w', 'iriw', 'corr', 'coww', 'corw', 'cowr'];
  const configurations = presets.flatMap((preset) => ['across', 'same'].map((placement) => `&preset=${encodeURIComponent(preset)}&placement=${placement}`));
  configurations.push('&preset=mp&placement=same&barrier=storage', '&preset=sb&placement=same&memory=workgroup&barrier=workgroup');
  for (const query of configurations) {
    const page = await open(query);
    await page.gpuReady();
    await compiled(page);
    assert.equal(await page.getByTestId('litmus-compile').getAttribute('data-state'), 'ok', `${query}: ${await page.text('litmus-compile')}`);
    await page.getByTestId('litmus-dispatches').selectOption('1');
    await page.runOnGpu();
    assert.equal(await page.getByTestId('gpu-error').count(), 0, query);
    const rows = await observedRows(page);
    const instances = Number((await page.text('litmus-summary')).match(/^(\d+) instances/)[1]);
    assert.ok(instances >= 65536, `${query}: ${instances}`);
    assert.equal(rows.reduce((a, r) => a + r.observed, 0), instances, `${query}: every instance counted once`);
    for (const r of rows) if (r.wgsl === 'forbidden') assert.equal(r.observed, 0, `${query}: ${r.outcome}`);
    assert.equal(await page.getByTestId('litmus-alarm').count(), 0, query);
    const weak = rows.filter((r) => r.sc === 'no' && r.observed > 0).map((r) => `${r.outcome} ${r.observed}`);
    const rate = Number(await page.getByTestId('gpu-report').getAttribute('data-rate'));
    console.log(`# ${query.slice(1)}: ${instances} instances, weak: ${weak.join(', ') || 'none'}; ${(rate / 1e6).toFixed(2)} M/s`);
    page.assertNoConsoleErrors();
    await closePage(page);
  }
});

test('a run counts every instance, and nothing the model forbids', async () => {
  const page = await open('&preset=mp');
  await page.showGpu();
  await page.getByTestId('litmus-dispatches').selectOption('10');
  await page.runOnGpu();
  assert.equal(await page.getByTestId('gpu-error').count(), 0);
  const rows = await observedRows(page);
  const instances = Number((await page.text('litmus-summary')).match(/^(\d+) instances/)[1]);
  assert.ok(instances >= 655360, `${instances}`);
  assert.equal(rows.reduce((a, r) => a + r.observed, 0), instances, 'every instance counted once');
  for (const r of rows) if (r.wgsl === 'forbidden') assert.equal(r.observed, 0, r.outcome);
  assert.equal(await page.getByTestId('litmus-alarm').count(), 0);
  const rate = Number(await page.getByTestId('gpu-report').getAttribute('data-rate'));
  console.log(`# mp on ${await page.text('adapter-name')}: ${rows.map((r) => `${r.outcome} ${r.observed}`).join(', ')}; ${(rate / 1e6).toFixed(2)} M instances/s`);
  await page.screenshot({ path: screenshotPath('litmus-run'), fullPage: true });
  page.assertNoConsoleErrors();
});

test('a mistake points at its line and column; the page goes on', async () => {
  const page = await open('');
  await page.getByTestId('litmus-text').fill('T0: x = 1\nT1: r0 = q');
  const error = page.getByTestId('litmus-error');
  assert.equal(await error.getAttribute('data-line'), '2');
  assert.equal(await error.getAttribute('data-column'), '10');
  assert.match(await error.textContent(), /line 2, column 10: unknown location "q"/);
  assert.equal(await page.getByTestId('litmus-outcomes').count(), 0);
  await page.getByTestId('litmus-text').fill('T0: x = 1\nT1: r0 = x');
  assert.equal(await page.getByTestId('litmus-error').count(), 0);
  assert.equal(await page.locator('[data-testid=litmus-outcomes] tbody tr').count(), 2);
  page.assertNoConsoleErrors();
});

test('500 random test texts, of WGSL and of the scoped syntax, never panic the page', async () => {
  const page = await open('');
  const outcome = await page.evaluate(async () => {
    const alphabet = 'T0123:xyzr=;|() ,atomicAdExchngeWkBrrsto\n&u';
    // Pieces of the scoped syntax, strung together at random: orders, scopes, fences, labels.
    const pieces = ['T0', 'T1@wg0', 'T2@wg1', '@wg', ':', ' x', ' y', 'r0 = ', 'r1 = ', '.store(', '.load(', '1', ', ', ')', '; ', ' | ', '\n',
      'release', 'acquire', 'acq_rel', 'seq_cst', 'relaxed', 'plain', 'workgroup', 'device', 'system', 'gpu', 'fence(', '__threadfence()',
      '__threadfence_block()', 'atomicAdd(x, 1', 'workgroupBarrier()', '(', ',,'];
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const area = document.querySelector('[data-testid=litmus-text]');
    let shown = 0;
    for (let i = 0; i < 500; i++) {
      let text = '';
      const len = next() % 50;
      if (i % 2) for (let j = 0; j < len / 2; j++) text += pieces[next() % pieces.length];
      else for (let j = 0; j < len; j++) text += alphabet[next() % alphabet.length];
      area.value = text;
      area.dispatchEvent(new Event('input', { bubbles: true }));
      // Let the page analyse it: it shows either the outcomes or what is wrong.
      await new Promise((r) => setTimeout(r, 0));
      if (document.querySelector('[data-testid=litmus-outcomes], [data-testid=litmus-error]')) shown++;
    }
    return shown;
  });
  assert.equal(outcome, 500, 'each text gave a table or a message');
  // Still alive: a good test typed now is analysed.
  await page.getByTestId('litmus-text').fill('T0: x=1; y=1 | T1: r0=y; r1=x');
  assert.equal(await page.locator('[data-testid=litmus-outcomes] tbody tr').count(), 4);
  page.assertNoConsoleErrors();
});

test('a test beyond WGSL gets the scoped verdict, runs nothing, and opens its nearest WGSL test in one click', async () => {
  const page = await open('&preset=mp-release-acquire');
  const weak = row(page, 'r0=1 r1=0');
  assert.equal(await weak.getAttribute('data-wgsl'), 'inexpressible');
  assert.equal(await weak.getAttribute('data-scoped'), 'forbidden');
  assert.match(await weak.locator('td.why').textContent(), /causality/);
  assert.equal(await row(page, 'r0=1 r1=1').getAttribute('data-scoped'), 'allowed');
  // Its graph draws the release synchronising with the acquire that read it.
  await page.getByTestId('litmus-why-r0=1 r1=1').click();
  await page.locator('[data-testid=litmus-graph] [data-edge="sync T0.1 T1.0"]').waitFor();
  await page.getByTestId('litmus-why-r0=1 r1=0').click();
  await page.locator('[data-testid=litmus-graph][data-outcome="r0=1 r1=0"] [data-edge="sync T0.1 T1.0"]').waitFor();
  // Each access shows its order and scope under it, and the legend says what the short words mean.
  const modes = await page.locator('[data-testid=litmus-graph] .g-mode').evaluateAll((ts) => ts.map((t) => t.dataset.mode));
  assert.ok(modes.includes('rel·dev') && modes.includes('acq·dev'), `orders and scopes drawn: ${modes}`);
  assert.match(await page.getByTestId('litmus-graph-modes').textContent(), /rel release/);
  await page.getByTestId('litmus-graph').screenshot({ path: screenshotPath('litmus-scoped-graph') });
  assert.match(await page.getByTestId('litmus-beyond-wgsl').textContent(), /memory orders other than relaxed/);
  assert.equal(await page.getByTestId('litmus-placement').isDisabled(), true, "the test's labels place its threads");
  await showGpuPanel(page);
  await page.getByTestId('litmus-gpu-beyond-wgsl').waitFor();
  assert.equal(await page.getByTestId('gpu-run').count(), 0, 'nothing to run');
  // Workgroup scope across workgroups: the flag's release and acquire do not reach each other.
  await page.getByTestId('litmus-preset').selectOption('mp-workgroup-scope');
  assert.equal(await weak.getAttribute('data-scoped'), 'allowed');
  // One click: the nearest WGSL test, relaxed, which WGSL allows to end weak and the GPU runs.
  await page.getByTestId('litmus-nearest-wgsl').click();
  assert.equal(await weak.getAttribute('data-wgsl'), 'allowed');
  assert.equal(await weak.getAttribute('data-scoped'), 'allowed');
  assert.equal(await page.getByTestId('litmus-beyond-wgsl').count(), 0);
  assert.match(await page.getByTestId('litmus-text').inputValue(), /^T0@wg0: x = 1; y = 1\nT1@wg1: r0 = y; r1 = x$/);
  await compiled(page);
  assert.equal(await page.getByTestId('litmus-compile').getAttribute('data-state'), 'ok');
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-link-pending'));
  assert.match(decodeURIComponent(page.url()), /T0@wg0/);
  // Four threads of six statements, fences of every kind: weighed whole, as large as it is.
  await page.getByTestId('litmus-text').fill('T0: x.store(1, release, device); __threadfence(); y = 1; fence(acq_rel, device); z = 1; r0 = y | T1: y.store(1, release, device); __threadfence(); z = 1; fence(acq_rel, device); x = 1; r1 = z | T2: r2 = x.load(acquire, device); fence(seq_cst, device); z.store(1, plain); fence(acq_rel, workgroup); y = 1; x = 1 | T3: r3 = y.load(acquire, device); __threadfence_block(); x = 1; fence(acq_rel, device); z = 1; y = 1');
  const big = page.getByTestId('litmus-outcomes');
  await big.waitFor();
  assert.equal(await big.locator('tbody tr[data-scoped=unweighed]').count(), 0);
  const ms = Number(await big.getAttribute('data-verdict-ms'));
  console.log(`four threads of six statements beyond WGSL: every verdict in ${ms.toFixed(0)} ms`);
  // Twelve seq_cst accesses, twelve seq_cst fences with 369,600 orders: more than the scoped
  // model weighs in a page. It says so, at once, and the page goes on.
  await page.getByTestId('litmus-text').fill('T0: x.store(1, seq_cst); r0 = y.load(seq_cst); z.store(1, seq_cst) | T1: y.store(1, seq_cst); r1 = z.load(seq_cst); x.store(2, seq_cst) | T2: z.store(2, seq_cst); r2 = x.load(seq_cst); y.store(2, seq_cst) | T3: x.store(1, seq_cst); z.store(2, seq_cst); y.store(1, seq_cst)');
  assert.match(await page.getByTestId('litmus-error').textContent(), /369600 orders of its seq_cst fences/);
  page.assertNoConsoleErrors();
});

test('be the scheduler and the memory: the reader makes the consumer read stale data, then a release and an acquire forbid it', async () => {
  const page = await open('&preset=mp');
  const scene = page.locator('.visibility-panel');
  await scene.scrollIntoViewIfNeeded();
  assert.equal(await page.getByTestId('vis-challenge').getAttribute('data-reached'), 'false');
  // The producer writes x, then the flag y.
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-step-0').click();
  assert.equal(await page.getByTestId('vis-history-x').locator('li').count(), 2, 'x: the initial 0, then 1');
  // The consumer reads the flag's newest write, then the stale x = 0: its view of x lags.
  await page.getByTestId('vis-read-1-1').click();
  assert.match(await page.getByTestId('vis-write-x-0').getAttribute('aria-label'), /seen up to here by T1/);
  await page.getByTestId('vis-read-1-0').click();
  assert.match(await page.getByTestId('vis-narration').textContent(), /T1 read x = 0 from initial, a stale write/);
  assert.equal(await page.getByTestId('vis-status').getAttribute('data-outcome'), 'r0=1 r1=0');
  assert.equal(await page.getByTestId('vis-status').getAttribute('data-weak'), 'true');
  assert.equal(await page.getByTestId('vis-challenge').getAttribute('data-reached'), 'true');
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-link-pending'));
  assert.match(page.url(), /watch=0\.0%2C0\.0%2C1\.1%2C1\.0|watch=0\.0,0\.0,1\.1,1\.0/);
  // The link brings the same run back.
  const again = await open(new URL(page.url()).search.replace('?lesson=litmus', ''));
  await again.locator('.visibility-panel').scrollIntoViewIfNeeded();
  assert.equal(await again.getByTestId('vis-status').getAttribute('data-outcome'), 'r0=1 r1=0');
  await again.close();
  await scene.screenshot({ path: screenshotPath('litmus-visibility-stale') });
  // A release store of the flag and an acquire load of it: reading y = 1 takes in T0's view of x.
  await page.getByTestId('litmus-preset').selectOption('mp-release-acquire');
  assert.equal(await page.getByTestId('vis-challenge').getAttribute('data-forbidden'), 'true');
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-step-0').click();
  assert.match(await page.getByTestId('vis-write-y-1').textContent(), /carries T0's view/);
  await page.getByTestId('vis-read-1-1').click();
  assert.match(await page.getByTestId('vis-narration').textContent(), /T1 read y = 1 from T0·2; its view moved on: it now sees x up to write 1/);
  assert.equal(await page.getByTestId('vis-read-1-0').count(), 0, 'x = 0 is no longer there to read');
  await page.getByTestId('vis-read-1-1').click();
  assert.equal(await page.getByTestId('vis-status').getAttribute('data-outcome'), 'r0=1 r1=1');
  await scene.screenshot({ path: screenshotPath('litmus-visibility-release') });
  page.assertNoConsoleErrors();
});

test('store buffering: the reader makes each thread miss the other\'s write, then seq_cst fences forbid it and acq_rel ones do not', async () => {
  const page = await open('&preset=sb');
  const scene = page.locator('.visibility-panel');
  await scene.scrollIntoViewIfNeeded();
  const challenge = page.getByTestId('vis-challenge');
  assert.equal(await challenge.getAttribute('data-shape'), 'sb');
  assert.equal(await challenge.getAttribute('data-reached'), 'false');
  // T0 stores x, then reads y: only the initial 0 is there to read.
  await page.getByTestId('vis-step-0').click();
  await page.getByTestId('vis-read-0-0').click();
  // T1 stores y, then reads x: it may read T0's 1 or, its view of x still at the start, the stale 0.
  await page.getByTestId('vis-step-1').click();
  await page.getByTestId('vis-read-1-0').click();
  assert.equal(await page.getByTestId('vis-status').getAttribute('data-outcome'), 'r0=0 r1=0');
  assert.equal(await challenge.getAttribute('data-reached'), 'true');
  await page.getByTestId('litmus-preset').selectOption('sb-fence-acq-rel');
  assert.equal(await page.getByTestId('vis-challenge').getAttribute('data-forbidden'), 'false', 'acq_rel fences publish nothing no one reads');
  await page.getByTestId('litmus-preset').selectOption('sb-fence-sc');
  assert.equal(await page.getByTestId('vis-challenge').getAttribute('data-forbidden'), 'true');
  // The message-passing challenge is not set for store buffering, nor any for load buffering.
  await page.getByTestId('litmus-preset').selectOption('lb');
  assert.equal(await page.getByTestId('vis-challenge').count(), 0);
  page.assertNoConsoleErrors();
});

test('threads placed some together and some apart: the verdicts keep their barrier, the stepped player says it leaves it out', async () => {
  const text = 'T0@wg0: x = 1; storageBarrier(); y = 1\nT1@wg0: storageBarrier(); r0 = x\nT2@wg1: r1 = y; r2 = x';
  const page = await open(`&test=${encodeURIComponent(text)}`);
  assert.equal(await row(page, 'r0=0 r1=0 r2=0').getAttribute('data-wgsl'), 'forbidden', 'the barrier orders T0 before T1');
  assert.equal(await row(page, 'r0=1 r1=1 r2=0').getAttribute('data-wgsl'), 'allowed', 'nothing orders T2');
  await page.getByTestId('lab-model-no-barriers').waitFor();
  page.assertNoConsoleErrors();
});

test('load buffering: the scene says which allowed outcome no step reaches', async () => {
  const page = await open('&preset=lb');
  assert.match(await page.getByTestId('vis-unreachable').textContent(), /r0=1 r1=1/);
  page.assertNoConsoleErrors();
});

test('the model player steps an interleaving from the table to its outcome', async () => {
  const page = await open('&preset=sb');
  const target = row(page, 'r0=1 r1=1');
  await target.locator('summary').click();
  await target.getByTestId('litmus-replay').click();
  await page.keyboard.press('End');
  assert.equal(await page.getByTestId('lab-model-outcome').getAttribute('data-outcome'), 'r0=1 r1=1');
  // Four statements, four steps: the player steps the test's own lines and nothing else.
  assert.equal((await page.stepIndex())[1], 4);
  await page.locator('.lab-model-panel').screenshot({ path: screenshotPath('litmus-model') });
  page.assertNoConsoleErrors();
});

test("stepping the model player outlines, in the outcome's graph, the statement it carried out", async () => {
  const page = await open('&preset=sb');
  const target = row(page, 'r0=1 r1=1');
  await target.locator('summary').click();
  await target.getByTestId('litmus-replay').click();
  await page.getByTestId('litmus-why-r0=1 r1=1').click();
  const outlined = () => page.locator('[data-testid=litmus-graph] .g-event.now').evaluateAll((gs) => gs.map((g) => g.dataset.event));
  assert.deepEqual(await outlined(), [], 'at the start no statement has been carried out');
  const seen = [];
  for (let i = 0; i < 4; i++) {
    await page.getByTestId('model-step').click();
    const now = await outlined();
    assert.equal(now.length, 1, `step ${i + 1}: one statement outlined, not ${JSON.stringify(now)}`);
    seen.push(now[0]);
  }
  // Each of the four statements once, each thread's in program order.
  assert.deepEqual([...seen].sort(), ['T0.0', 'T0.1', 'T1.0', 'T1.1']);
  assert.ok(seen.indexOf('T0.0') < seen.indexOf('T0.1') && seen.indexOf('T1.0') < seen.indexOf('T1.1'), seen.join(' '));
  await page.getByTestId('model-back').click();
  assert.deepEqual(await outlined(), [seen[2]], 'a step back outlines the statement before');
  await page.getByTestId('litmus-graph').screenshot({ path: screenshotPath('litmus-graph-stepping') });
  page.assertNoConsoleErrors();
});

test('the message-passing lesson opens its test in the lab', async () => {
  const page = await LessonPage.open(site, 'message-passing', '&variant=same-workgroup');
  const link = page.getByTestId('open-in-lab');
  // The link sits in the lesson's longer text, folded under the model: opened as a reader's
  // click would, whatever state the fold was in.
  await page.getByTestId('background').evaluate((fold) => {
    fold.open = true;
  });
  // Clicked once the page has settled: the GPU half arriving (the open fold can bring the GPU
  // panel near) moves what lies below the model, and a click aimed before that may land beside
  // the link (seen once in a full run).
  await page.gpuState();
  assert.equal(await link.getAttribute('href'), '?lesson=litmus&preset=mp&placement=same&memory=storage&barrier=storage');
  await link.click();
  await page.waitForURL(/lesson=litmus/);
  // The lab's model and outcomes come with its GPU half, fetched as the reader nears the GPU
  // panel: scrolled to, as a reader would (whether the first screen already reaches it depends
  // on how the page happened to lay out when it looked).
  await showGpuPanel(page);
  await page.locator('.lab-model-panel').scrollIntoViewIfNeeded();
  await page.getByTestId('litmus-outcomes').waitFor();
  assert.equal(await row(page, 'r0=1 r1=0').getAttribute('data-wgsl'), 'forbidden');
  page.assertNoConsoleErrors();
});
