// Course notes embed lessons with <iframe>: no site chrome, narrow widths, and a height
// message (one fixed shape) that lets the parent page size each frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { openPage, screenshotPath, waitForGpu } from './support/browser.mjs';

const FRAMES = [
  { width: 340, query: '?lesson=race&embed=1' },
  { width: 300, query: '?lesson=race&embed=1&variant=atomic&threads=3&x=%3Cimg%20src%3Dx%3E' },
];

// The parent page a course author would write: the README's snippet, twice.
const PARENT = `<!doctype html><meta charset="utf-8"><title>notes</title><link rel="icon" href="data:,">
<h1>Course notes</h1>
${FRAMES.map((f) => `<iframe src="/${f.query}" width="${f.width}" height="150" style="border:1px solid #888" title="syncscope lesson"></iframe>`).join('\n<p>Between the lessons.</p>\n')}
<script>
  window.messages = [];
  addEventListener('message', (event) => {
    const frames = [...document.querySelectorAll('iframe')];
    const index = frames.findIndex((f) => f.contentWindow === event.source);
    window.messages.push({ index, data: event.data });
    if (event.data && event.data.source === 'syncscope' && event.data.type === 'height') {
      frames[index].style.height = event.data.height + 'px';
    }
  });
</script>`;

/** The document inside the parent's i-th iframe. */
async function frameAt(page, i) {
  return (await page.locator('iframe').nth(i).elementHandle()).contentFrame();
}

/** A name for the test server that is not localhost: a course page served over http:// from
 * it is not a secure context, as a real course's http:// page is not. */
const COURSE_HOST = 'course.test';

const site = useSite({ extra: { '/notes.html': PARENT }, hosts: [COURSE_HOST] });

test('two embedded lessons report their heights (the first one real) and fit their frames', async () => {
  const page = await openPage(site.browser, `${site.origin}/notes.html`);
  await page.waitForFunction(
    () => [0, 1].every((i) => window.messages.some((m) => m.index === i && m.data.height > 300)),
    null,
    { timeout: 30_000 },
  );
  const messages = await page.evaluate(() => window.messages);
  for (const { index, data } of messages) {
    assert.ok(index === 0 || index === 1, 'message from one of the two frames');
    assert.deepEqual(Object.keys(data).sort(), ['height', 'lesson', 'source', 'type']);
    assert.equal(data.source, 'syncscope');
    assert.equal(data.type, 'height');
    assert.equal(data.lesson, 'race');
    assert.equal(typeof data.height, 'number');
    // The first message included: the lesson's height, not the empty page's before the lesson
    // was drawn, which would collapse the frame until the next message.
    assert.ok(data.height > 0, `frame ${index} reported a height of ${data.height}`);
  }

  for (const i of FRAMES.keys()) {
    const frame = await frameAt(page, i);
    assert.ok(frame.url().includes('embed=1'), `frame ${i} keeps embed=1 in its address: ${frame.url()}`);
    await frame.getByTestId('model-player').waitFor();
    const inside = await frame.evaluate(() => ({
      header: document.querySelectorAll('header.site').length,
      overflowX: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      overflowY: document.documentElement.scrollHeight - window.innerHeight,
      injected: document.querySelectorAll('img, script:not([src])').length,
      full: document.querySelector('[data-testid=open-full]')?.getAttribute('href'),
    }));
    assert.equal(inside.header, 0, 'no site header in an embed');
    assert.ok(inside.overflowX <= 0, `frame ${i} scrolls sideways by ${inside.overflowX}px`);
    assert.ok(inside.overflowY <= 1, `frame ${i} is ${inside.overflowY}px taller than its iframe`);
    assert.equal(inside.injected, 0, 'nothing from the URL became markup');
    assert.ok(inside.full && !inside.full.includes('embed='), `"open in syncscope" drops embed: ${inside.full}`);
  }

  // Content that grows (a GPU report) sends a new, larger height.
  const first = await frameAt(page, 0);
  const before = await page.evaluate(() => Math.max(...window.messages.filter((m) => m.index === 0).map((m) => m.data.height)));
  // The GPU half arrives as the reader scrolls to its panel, inside the frame as anywhere.
  await first.locator('.gpu-panel').scrollIntoViewIfNeeded();
  await first.getByTestId('gpu-run').click();
  await first.getByTestId('gpu-report').waitFor({ timeout: 60_000 });
  await page.waitForFunction(
    (before) => window.messages.some((m) => m.index === 0 && m.data.height > before),
    before,
    { timeout: 10_000 },
  );
  await page.screenshot({ path: screenshotPath('embed-two-lessons'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

test('in an http:// course page the lesson says WebGPU needs a secure context, not another browser', async () => {
  // The same server and browser (which has WebGPU: the frames above ran on it), reached by a
  // name that is not localhost.
  const course = site.origin.replace('127.0.0.1', COURSE_HOST);
  const page = await openPage(site.browser, `${course}/notes.html`);
  assert.equal(await page.evaluate(() => window.isSecureContext), false, 'the course page is not a secure context');
  const frame = await frameAt(page, 0);
  await frame.getByTestId('model-player').waitFor();
  assert.equal(await frame.evaluate(() => window.isSecureContext), false, 'nor is a frame inside it');
  await frame.locator('.gpu-panel').scrollIntoViewIfNeeded();
  await frame.waitForFunction(() => document.querySelector('[data-testid=gpu-status]')?.dataset.state === 'unavailable');
  assert.equal(await frame.getByTestId('gpu-status').getAttribute('data-reason'), 'insecure');
  const notice = await frame.getByTestId('gpu-unavailable').textContent();
  assert.match(notice, /secure context/);
  assert.match(notice, /https:\/\//);
  assert.match(notice, /localhost/);
  assert.match(notice, /embeds it/, 'says the embedding page is what must change');
  assert.match(notice, /model still works/);
  assert.doesNotMatch(notice, /chrome:\/\/|about:config/, 'no browser settings: the browser is not what is missing');
  // The frame still sizes itself, from its first message on.
  await page.waitForFunction(() => window.messages.some((m) => m.index === 0 && m.data.height > 300));
  const heights = await page.evaluate(() => window.messages.filter((m) => m.index === 0).map((m) => m.data.height));
  assert.ok(heights.every((h) => h > 0), `heights reported: ${heights.join(', ')}`);
  await page.screenshot({ path: screenshotPath('embed-insecure-context'), fullPage: true });
  assert.deepEqual(page.errors, []);

  // The lesson opened on its own from the same http:// host says the same.
  const alone = await openPage(site.browser, `${course}/?lesson=race`);
  await waitForGpu(alone, 'unavailable');
  assert.equal(await alone.getByTestId('gpu-status').getAttribute('data-reason'), 'insecure');
  assert.match(await alone.getByTestId('gpu-unavailable').textContent(), /secure context/);
  assert.deepEqual(alone.errors, []);
});
