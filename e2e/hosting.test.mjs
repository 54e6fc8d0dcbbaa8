// The built dist/ on a plain static host: under a sub-path and a strict
// Content-Security-Policy. Every lesson on the index must load and run its kernel.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { lessonIds, openPage, overTheWire, showGpuPanel } from './support/browser.mjs';

const CSP = "script-src 'self' 'wasm-unsafe-eval'";

/** Opens the index, then every lesson it lists; each must render and run once on the GPU. */
async function everyLessonLoads(site) {
  const home = await openPage(site.browser, site.url);
  await home.getByTestId('lesson-list').waitFor();
  const links = await home.getByTestId('lesson-list').locator('a').evaluateAll((as) => as.map((a) => a.href));
  assert.ok(links.length >= 1, 'the index lists lessons');
  assert.deepEqual(home.errors, []);
  for (const href of links) {
    assert.ok(href.startsWith(site.url), `${href} stays under ${site.url}`);
    const page = await openPage(site.browser, href);
    // As a reader scrolling down the page (the lab's model comes with its GPU half).
    await showGpuPanel(page);
    await page.getByTestId('model-player').waitFor();
    await page.getByTestId('model-step').click();
    await page.getByTestId('gpu-run').click();
    await page.getByTestId('gpu-report').waitFor({ timeout: 60_000 });
    assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', href);
    assert.deepEqual(page.errors, [], href);
    await page.context().close();
  }
  await home.context().close();
}

// Both at once: each lesson loads and runs its kernel from a sub-path of a host that sends a
// strict CSP (one pass over every lesson, not one per condition).
describe('under a sub-path, with a strict CSP', () => {
  const site = useSite({ base: '/some/sub/path/', headers: { 'content-security-policy': CSP } });
  test(`the index and every lesson load from /some/sub/path/ and run with ${CSP}`, async () => {
    assert.match(site.url, /\/some\/sub\/path\/$/);
    const probe = await openPage(site.browser, site.url);
    const response = await probe.goto(site.url);
    assert.equal(response.headers()['content-security-policy'], CSP);
    assert.equal(await probe.locator('script:not([src])').count(), 0, 'no inline scripts to allow');
    await probe.context().close();
    await everyLessonLoads(site);
  });
});

describe('one wasm per page', () => {
  const site = useSite({ webgpu: false });

  test('each page downloads its own wasm and no other', async () => {
    const ids = await lessonIds(site.browser, site.url);
    for (const id of ['', ...ids, 'cuda-map']) {
      const page = await openPage(site.browser, 'about:blank');
      const wasm = [];
      page.on('request', (r) => {
        const { pathname } = new URL(r.url());
        if (pathname.endsWith('.wasm')) wasm.push(pathname.split('/').slice(-2).join('/'));
      });
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
      await page.context().close();
    }
  });

  test('a `?lesson=` that names a property of every object still gets the index and a message', async () => {
    for (const id of ['constructor', '__proto__', 'toString']) {
      const page = await openPage(site.browser, `${site.url}?lesson=${id}`);
      await page.getByTestId('lesson-list').waitFor();
      assert.match(await page.getByTestId('param-error').textContent(), new RegExp(`lesson="${id}" was ignored`));
      assert.deepEqual(page.errors, [], id);
      await page.context().close();
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
    await page.context().close();
  });
});
