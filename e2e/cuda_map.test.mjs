// The CUDA ↔ WGSL reference: reached from the index (and from every lesson's code panel, checked
// in the one pass over every lesson of e2e/hosting.test.mjs); each row links to a lesson that
// opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { closePage, openPage, screenshotPath } from './support/browser.mjs';

const site = useSite();

test('the index lists the map, and every row links to a lesson that opens', async () => {
  const home = await openPage(site.browser, site.url);
  await home.getByTestId('reference-list').locator('a').click();
  const table = home.getByTestId('cuda-map-table');
  await table.waitFor();
  const rows = await table.locator('tbody tr').allTextContents();
  assert.ok(rows.length >= 15, `${rows.length} rows`);
  for (const construct of ['__syncthreads', '__syncwarp', '__threadfence_block', 'volatile', 'memory_order', 'arrive', 'latch', 'grid.sync']) {
    assert.ok(rows.some((r) => r.includes(construct)), construct);
  }
  const links = await table.locator('a').evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.textContent]));
  assert.equal(links.length, rows.length);
  for (const [href, title] of [...new Set(links.map((l) => JSON.stringify(l)))].map((l) => JSON.parse(l))) {
    const page = await openPage(site.browser, `${site.url}${href}`);
    assert.equal((await page.locator('h1').textContent()).trim(), title, href);
    assert.deepEqual(page.errors, [], href);
    await closePage(page);
  }
  await home.screenshot({ path: screenshotPath('cuda-map'), fullPage: true });
  assert.deepEqual(home.errors, []);
});

test('the map filters its rows by the words typed, and every row comes back when they go', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=cuda-map`);
  const table = page.getByTestId('cuda-map-table');
  await table.waitFor();
  const all = await table.locator('tbody tr').count();
  await page.getByTestId('cuda-map-filter').fill('FENCE');
  const shown = await table.locator('tbody tr:visible').allTextContents();
  assert.ok(shown.length >= 1 && shown.length < all, `${shown.length} of ${all} rows shown`);
  for (const row of shown) assert.match(row, /fence/i);
  await page.getByTestId('cuda-map-filter').fill('');
  assert.equal(await table.locator('tbody tr:visible').count(), all);
  assert.deepEqual(page.errors, []);
});
