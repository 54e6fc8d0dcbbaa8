// The index: every lesson with its summary, and the reader's WebGPU status — the adapter's
// name, or why there is none and how to turn WebGPU on.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage, screenshotPath } from './support/browser.mjs';

async function lessons(page) {
  await page.getByTestId('lesson-list').waitFor();
  return page.getByTestId('lesson-list').locator('li').evaluateAll((lis) =>
    lis.map((li) => ({ href: li.querySelector('a').getAttribute('href'), text: li.textContent })),
  );
}

describe('with WebGPU', () => {
  const site = useSite();
  test('lists the lessons and names the adapter', async () => {
    const page = await openPage(site.browser, site.url);
    const list = await lessons(page);
    assert.ok(list.some((l) => l.href === '?lesson=race' && /lost update/i.test(l.text) && /atomicAdd/.test(l.text)), JSON.stringify(list));
    await page.waitForFunction(() => document.querySelector('[data-testid=gpu-status]')?.dataset.state === 'ready');
    assert.match(await page.getByTestId('adapter-name').textContent(), /\S/);
    await page.screenshot({ path: screenshotPath('home'), fullPage: true });
    assert.deepEqual(page.errors, []);
  });
});

describe('without WebGPU', () => {
  const site = useSite({ webgpu: false });
  test('says why the GPU half is missing and how to enable it', async () => {
    const page = await openPage(site.browser, site.url);
    assert.ok((await lessons(page)).length >= 1);
    await page.waitForFunction(() => document.querySelector('[data-testid=gpu-status]')?.dataset.state === 'unavailable');
    const notice = await page.getByTestId('gpu-unavailable').textContent();
    assert.match(notice, /model still works/);
    assert.match(notice, /chrome:\/\/(flags|gpu)/);
    assert.deepEqual(page.errors, []);
  });
});
