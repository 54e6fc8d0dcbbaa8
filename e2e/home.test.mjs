// The index: every lesson with its summary, and the reader's WebGPU status — the adapter's
// name, or why there is none and how to turn WebGPU on.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { lessonIds, openPage, screenshotPath, waitForGpu } from './support/browser.mjs';

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
    await waitForGpu(page);
    assert.match(await page.getByTestId('adapter-name').textContent(), /\S/);
    await page.screenshot({ path: screenshotPath('home'), fullPage: true });
    assert.deepEqual(page.errors, []);
  });

  test('the index is a course: chapters in order, each lesson with a still of its scene', async () => {
    const page = await openPage(site.browser, site.url);
    await page.getByTestId('lesson-list').waitFor();
    const chapters = await page.locator('.chapter h2').allTextContents();
    assert.deepEqual(chapters, ['Atomics', 'Barriers', 'Contention', 'Memory order', 'Memory visibility', 'Beyond one workgroup']);
    const cards = page.locator('.lesson-card');
    const n = await cards.count();
    assert.ok(n >= 11, `${n} lessons`);
    assert.equal(await page.locator('.lesson-card .thumbnail svg').count(), n, 'every card draws its scene');
    assert.equal(await page.locator('.lesson-card .thumbnail[aria-hidden=true]').count(), n, 'a still, not read out');
    assert.deepEqual(page.errors, []);
  });

  test('each lesson ends with the previous and the next in the course', async () => {
    const ids = await lessonIds(site.browser, site.url);
    const page = await openPage(site.browser, `${site.url}?lesson=${ids[1]}`);
    assert.equal(await page.getByTestId('lesson-prev').getAttribute('href'), `?lesson=${ids[0]}`);
    assert.equal(await page.getByTestId('lesson-next').getAttribute('href'), `?lesson=${ids[2]}`);
    const first = await openPage(site.browser, `${site.url}?lesson=${ids[0]}`);
    await first.getByTestId('lesson-next').waitFor();
    assert.equal(await first.getByTestId('lesson-prev').count(), 0);
    const embedded = await openPage(site.browser, `${site.url}?lesson=${ids[1]}&embed=1`);
    await embedded.getByTestId('model-player').waitFor();
    assert.equal(await embedded.locator('nav.lesson-nav').count(), 0, 'not inside an embedding frame');
    assert.deepEqual([...page.errors, ...first.errors, ...embedded.errors], []);
  });
});

describe('without WebGPU', () => {
  const site = useSite({ webgpu: false });
  test('says why the GPU half is missing and how to enable it', async () => {
    const page = await openPage(site.browser, site.url);
    assert.ok((await lessons(page)).length >= 1);
    await waitForGpu(page, 'unavailable');
    const notice = await page.getByTestId('gpu-unavailable').textContent();
    assert.match(notice, /model still works/);
    assert.match(notice, /chrome:\/\/(flags|gpu)/);
    assert.deepEqual(page.errors, []);
  });
});
