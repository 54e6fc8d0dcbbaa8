// The built dist/ on a plain static host: under a sub-path and a strict
// Content-Security-Policy, every lesson on the index loads and runs its kernel (and more, in
// the same pass: see `everyLessonOnce`); each page fetches only its own wasm; the next lesson
// comes with only its own files.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { lessonIds, closePage, openPage, overTheWire, screenshotPath, waitForWarmGpu } from './support/browser.mjs';
import { clickAndWait, recordWebGpu } from '../bench/webgpu_replay.mjs';

const CSP = "script-src 'self' 'wasm-unsafe-eval'";

/**
 * Every lesson the index lists, once, as a reader on a phone meets it: opened from the index,
 * its model stepped, its kernel run with the WebGPU calls of that click recorded, then jumped to
 * its end and left through its code panel's link to the map. One pass checks what four passes
 * over every lesson used to (each a page load, a GPU found and every kernel compiled again):
 * - the page loads and runs under `site`'s sub-path and CSP, and its run's verdict is right;
 * - the first click finds every pipeline compiled, and maps each submission's results once,
 *   asking for its errors before awaiting them;
 * - nothing is wider than a 375-px screen after a run;
 * - the code panel links to the CUDA ↔ WGSL map, which opens.
 */
async function everyLessonOnce(site) {
  const home = await openPage(site.browser, site.url);
  await home.getByTestId('lesson-list').waitFor();
  const links = await home.getByTestId('lesson-list').locator('a').evaluateAll((as) => as.map((a) => a.href));
  assert.ok(links.length >= 10, `the index lists ${links.length} lessons`);
  assert.deepEqual(home.errors, []);
  for (const href of links) {
    assert.ok(href.startsWith(site.url), `${href} stays under ${site.url}`);
    const id = new URL(href).searchParams.get('lesson');
    const page = await openPage(site.browser, href, {
      initScript: recordWebGpu,
      viewport: { width: 375, height: 812 },
      colorScheme: 'dark',
    });
    await page.getByTestId('model-player').waitFor();
    await page.getByTestId('model-step').click();
    // As a reader scrolling down the page: ready, and nothing left compiling in the background.
    await waitForWarmGpu(page, { timeout: 120_000 });

    await page.evaluate(() => globalThis.__webgpuLog.start());
    const { roundTrip } = await page.evaluate(clickAndWait, 'gpu-run');
    await page.evaluate(() => globalThis.__webgpuLog.stop());
    assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', `${id}: the run's verdict`);
    const calls = await page.evaluate(() => globalThis.__webgpuRecorded.log.map((c) => c.method));
    const count = (m) => calls.filter((c) => c === m).length;
    assert.equal(count('createShaderModule') + count('createComputePipeline'), 0, `${id}: the first click compiled a pipeline`);
    assert.ok(count('submit') >= 1, `${id}: the click submitted nothing`);
    assert.equal(count('mapAsync'), count('submit'), `${id}: one map per submission (${calls.join(' ')})`);
    // Each submission's errors are asked for before its results are awaited, not a trip later.
    for (let i = calls.indexOf('submit'); i >= 0; i = calls.indexOf('submit', i + 1)) {
      const next = calls.slice(i + 1);
      const pop = next.indexOf('popErrorScope');
      const map = next.indexOf('mapAsync');
      assert.ok(pop >= 0 && pop < map, `${id}: errors asked for after the map (${calls.join(' ')})`);
    }
    assert.ok(roundTrip > 0, `${id}: the run's round trip is on its button`);

    await page.keyboard.press('End');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${id}: ${overflow}px wider than the phone`);
    if (id === 'atomic-ops') await page.screenshot({ path: screenshotPath('atomic-ops-phone-dark'), fullPage: true });

    await page.getByTestId('cuda-map-link').click();
    await page.waitForURL(/[?&]lesson=cuda-map(&|$)/).catch((e) => {
      throw new Error(`${id}: the code panel's link did not open the map (still at ${page.url()})`, { cause: e });
    });
    await page.getByTestId('cuda-map-table').waitFor();
    assert.deepEqual(page.errors, [], `${id}: console errors`);
    await closePage(page);
  }
  await closePage(home);
}

describe('under a sub-path, with a strict CSP', () => {
  const site = useSite({ base: '/some/sub/path/', headers: { 'content-security-policy': CSP } });
  test(`every lesson, from /some/sub/path/ with ${CSP}, on a phone: its kernel runs with its pipelines compiled before the click, the page fits, and its code panel links to the map`, async () => {
    assert.match(site.url, /\/some\/sub\/path\/$/);
    const probe = await openPage(site.browser, site.url);
    const response = await probe.goto(site.url);
    assert.equal(response.headers()['content-security-policy'], CSP);
    assert.equal(await probe.locator('script:not([src])').count(), 0, 'no inline scripts to allow');
    await closePage(probe);
    await everyLessonOnce(site);
  });
});

describe('one wasm per page', () => {
  const site = useSite({ webgpu: false });

  test('each page downloads its own wasm and no other', async () => {
    const ids = await lessonIds(site.browser, site.url);
    // One tab, going from page to page: each page's document fetches its own files (the test
    // server sends nothing a browser may cache).
    const page = await openPage(site.browser, 'about:blank');
    const wasm = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.endsWith('.wasm')) wasm.push(pathname.split('/').slice(-2).join('/'));
    });
    for (const id of ['', ...ids, 'cuda-map']) {
      wasm.length = 0;
      page.errors.length = 0;
      await page.goto(id ? `${site.url}?lesson=${id}` : site.url);
      await page.locator('main#main > *').first().waitFor();
      await page.waitForLoadState('networkidle');
      // Its GPU half, split off, comes only as the reader nears the GPU panel.
      assert.equal(wasm.length, 1, `${id || 'the index'} fetched ${wasm.join(', ')}`);
      // The index's wasm is the one Trunk builds from src/main.rs, named after the crate (Trunk
      // writes its hash without leading zeros); each lesson page's files are in a folder
      // named by the page and 16 hex digits of their hash.
      const own = id ? `${id}-[0-9a-f]{16}/${id}_bg\\.wasm` : '[^/]*/syncscope-[0-9a-f]{1,16}_bg\\.wasm';
      assert.match(wasm[0], new RegExp(`^${own}$`));
      assert.deepEqual(page.errors, [], id);
    }
    await closePage(page);
  });

  test('a `?lesson=` that names a property of every object still gets the index and a message', async () => {
    for (const id of ['constructor', '__proto__', 'toString']) {
      const page = await openPage(site.browser, `${site.url}?lesson=${id}`);
      await page.getByTestId('lesson-list').waitFor();
      assert.match(await page.getByTestId('param-error').textContent(), new RegExp(`lesson="${id}" was ignored`));
      assert.deepEqual(page.errors, [], id);
      await closePage(page);
    }
  });
});

describe('going on to the next lesson', () => {
  // As any static host serves it: with `Last-Modified` and an `ETag`.
  const site = useSite({ webgpu: false, validators: true });

  test('fetches only the next page: its HTML and its own folder; the CSS and the start-up script come from the cache', async () => {
    const page = await openPage(site.browser, `${site.url}?lesson=race`);
    await page.getByTestId('model-player').waitFor();
    await page.waitForLoadState('networkidle');
    const wire = await overTheWire(page);
    await page.getByTestId('lesson-next').click();
    await page.waitForURL(/lesson=atomic-counter/);
    await page.getByTestId('model-player').waitFor();
    await wire.settled();
    const fetched = wire.files.map((f) => new URL(f.url).pathname.slice(new URL(site.url).pathname.length));
    const own = /^atomic-counter-[0-9a-f]{16}\//;
    assert.ok(fetched.some((f) => own.test(f) && f.endsWith('_bg.wasm')), `its wasm: ${fetched.join(', ')}`);
    for (const f of fetched) assert.ok(f === '' || f === 'index.html' || own.test(f), `${f} is not the next page's own (${fetched.join(', ')})`);
    // The stylesheet and the start-up script, at least, were already in hand.
    assert.ok(wire.cached >= 2, `${wire.cached} from the cache`);
    assert.deepEqual(page.errors, []);
    await closePage(page);
  });
});
