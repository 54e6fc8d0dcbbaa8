// The built dist/ on a plain static host: under a sub-path, and under a strict
// Content-Security-Policy. Every lesson on the index must load and run its kernel.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage } from './support/browser.mjs';

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

describe('under a sub-path', () => {
  const site = useSite({ base: '/some/sub/path/' });
  test('the index and every lesson load from /some/sub/path/', () => everyLessonLoads(site));
});

describe('under a strict CSP', () => {
  const site = useSite({ headers: { 'content-security-policy': CSP } });
  test(`every lesson runs with ${CSP}`, async () => {
    const probe = await openPage(site.browser, site.url);
    const response = await probe.goto(site.url);
    assert.equal(response.headers()['content-security-policy'], CSP);
    assert.equal(await probe.locator('script:not([src])').count(), 0, 'no inline scripts to allow');
    await probe.context().close();
    await everyLessonLoads(site);
  });
});
