// Every page reads as a student meets it: the scene's text at reading size on a phone and a
// desktop, no label lying over another, a short lead before the first control, a title of its
// own, a way on to the previous and next page, and no word about how the site was made.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { lessonIds, closePage, openPage, screenshotPath } from './support/browser.mjs';

const site = useSite();
/** Every lesson is stepped through at two of these and jumped to its end at the other two, and
 * screenshot at all four. */
const VIEWS = [
  { width: 375, colorScheme: 'dark', everyStep: true },
  { width: 1280, colorScheme: 'light', everyStep: true },
  { width: 375, colorScheme: 'light', everyStep: false },
  { width: 1280, colorScheme: 'dark', everyStep: false },
];
/** A page that names the site's own making: its source articles, its repository's files. */
const INTERNAL = [/\bthe seed\b/i, /\bseed's\b/i, /\bdata\/[\w-]+\.json\b/, /\bexamples\/\w+\.rs\b/, /\bsrc\/\w+/, /\bshaders\/\w+/, /\bREADME\b/];

/** The rendered size of every visible text of the page's scenes (font size × the scene's
 * scale), and each text's box: at each step of the page's model from where it stands to its
 * end, one step at a time (`everyStep`) or in one jump. Run in the page, in one call (a call
 * a step made the test three times as long); the keys go where the player listens for them. */
function sceneTextsToTheEnd(page, everyStep) {
  return page.evaluate(async (everyStep) => {
    const textsNow = () => {
      const out = [];
      for (const svg of document.querySelectorAll('[data-testid=scene] > svg')) {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        for (const t of svg.querySelectorAll('text')) {
          const box = t.getBoundingClientRect();
          if (box.width === 0 || !t.textContent.trim()) continue;
          out.push({
            text: t.textContent.trim(),
            px: parseFloat(getComputedStyle(t).fontSize) * scale,
            box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
          });
        }
      }
      return out;
    };
    // A resize reaches the scene through a ResizeObserver, which reports in a frame's
    // rendering, and the scene laid out again may be reported once more: measured once every
    // scene has kept its width for three frames in a row.
    const widths = () => [...document.querySelectorAll('[data-testid=scene] > svg')].map((s) => s.getAttribute('width')).join();
    await document.fonts.ready;
    for (let frame = 0, same = 0, was = widths(); frame < 120 && same < 3; frame++) {
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const now = widths();
      same = now === was ? same + 1 : 0;
      was = now;
    }
    const steps = [];
    for (let step = 0; step < 400; step++) {
      steps.push(textsNow());
      const [at, total] = document.querySelector('[data-testid=step-index]').textContent.match(/\d+/g).map(Number);
      if (at >= total) break;
      window.dispatchEvent(new KeyboardEvent('keydown', { key: everyStep ? 'ArrowRight' : 'End' }));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }
    return steps;
  }, everyStep);
}

/** Pairs of texts whose boxes overlap by more than a sliver. */
function overlaps(texts) {
  const out = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const [a, b] = [texts[i].box, texts[j].box];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) out.push(`"${texts[i].text}" over "${texts[j].text}"`);
    }
  }
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

test('every scene reads at 375 and 1280 px, light and dark, step by step to the end, with no label over another', async () => {
  const lessons = await lessonIds(site.browser, site.url);
  const failures = [];
  for (const lesson of lessons) {
    // One page a lesson, turned and recoloured between views as a phone is turned or its
    // scheme changed (a page load a view made the test a third longer); each view starts again
    // from the first step.
    const first = VIEWS[0];
    const page = await openPage(site.browser, `${site.url}?lesson=${lesson}`, {
      viewport: { width: first.width, height: 900 },
      colorScheme: first.colorScheme,
      reducedMotion: 'reduce',
    });
    await page.getByTestId('model-player').waitFor();
    for (const { width, colorScheme, everyStep } of VIEWS) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await page.evaluate(() => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home' })));
      await page.getByTestId('scene').first().scrollIntoViewIfNeeded();
      const sizes = [];
      // Every step of the default run, each checked for labels lying over each other.
      for (const [step, texts] of (await sceneTextsToTheEnd(page, everyStep)).entries()) {
        sizes.push(...texts.map((t) => t.px));
        for (const o of overlaps(texts)) failures.push(`${lesson} at ${width} px ${colorScheme}, step ${step}: ${o}`);
      }
      assert.ok(sizes.length > 0, `${lesson} at ${width} px: the scene drew no text`);
      const [mid, least] = [median(sizes), Math.min(...sizes)];
      console.log(`# ${lesson} at ${width} px, ${colorScheme}: scene text ${mid.toFixed(1)} px median, ${least.toFixed(1)} px smallest`);
      if (mid < 11) failures.push(`${lesson} at ${width} px: scene text ${mid.toFixed(1)} px median (< 11)`);
      if (least < 9) failures.push(`${lesson} at ${width} px: scene text ${least.toFixed(1)} px at its smallest (< 9)`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) failures.push(`${lesson} at ${width} px: the page is ${overflow} px wider than the screen`);
      await page.screenshot({ path: screenshotPath(`reads-${lesson}-${width}-${colorScheme}`), fullPage: true });
    }
    assert.deepEqual(page.errors, [], lesson);
    await closePage(page);
  }
  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} problem(s)`);
});

test('a barrier inside a branch holds half the threads while the rest run on, and is found', async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=barrier&variant=in-branch&threads=4`, { reducedMotion: 'reduce' });
  await page.getByTestId('model-player').waitFor();
  const gate = page.getByTestId('scene-gate');
  // Step until the two threads inside the if wait at the gate for the two that skipped it.
  for (let i = 0; i < 20 && (await gate.count()) === 0; i++) await page.keyboard.press('ArrowRight');
  for (let i = 0; i < 20 && (await gate.getAttribute('data-arrived')) !== '2'; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await gate.getAttribute('data-arrived'), '2');
  assert.equal(await gate.getAttribute('data-of'), '4', 'the gate counts the whole workgroup');
  assert.equal(await gate.locator('.gate-count').textContent(), '2 of 4');
  assert.doesNotMatch(await gate.getAttribute('class'), /open/);
  await page.getByTestId('scene').screenshot({ path: screenshotPath('reads-barrier-in-branch') });
  // At the end the model has let them go, and names the barrier not every thread reaches.
  await page.keyboard.press('End');
  const findings = page.getByTestId('findings');
  assert.equal(await findings.getAttribute('data-divergence'), '1');
  assert.match(await findings.textContent(), /A barrier not every thread reaches: thread \d waits at line \d+ while thread \d has ended without it/);
  assert.deepEqual(page.errors, []);
});

/** Words of the page's main text, in document order, before its first control. */
function wordsBeforeFirstControl(page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    // A glossary term takes focus to show its meaning; it is part of the text, not a control.
    const control = 'a[href], button, input, select, textarea, summary, [role=button], [tabindex="0"]:not(.term)';
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    let words = 0;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.nodeType === Node.ELEMENT_NODE) {
        if (n.matches(control)) return words;
        continue;
      }
      const parent = n.parentElement;
      if (parent.closest('svg, [hidden], [aria-hidden=true]') || !parent.getClientRects().length) continue;
      words += n.textContent.split(/\s+/).filter((w) => /\w/.test(w)).length;
    }
    return words;
  });
}

test('every page: its own title, a lead of at most 120 words, a way on, and no internal words', async () => {
  const lessons = await lessonIds(site.browser, site.url);
  const pages = [...lessons, 'litmus', 'cuda-map'];
  const titles = new Set();
  for (const id of pages) {
    const page = await openPage(site.browser, `${site.url}?lesson=${id}`);
    await page.locator('main h1').first().waitFor();
    const h1 = (await page.locator('main h1').first().textContent()).trim();
    await page.waitForFunction(() => document.title.endsWith(' — syncscope'));
    const title = await page.title();
    assert.equal(title, `${h1} — syncscope`, id);
    titles.add(title);

    const words = await wordsBeforeFirstControl(page);
    console.log(`# ${id}: ${words} words before the first control`);
    assert.ok(words <= 120, `${id}: ${words} words before the first control`);

    const nav = page.locator('nav.lesson-nav');
    await nav.waitFor();
    assert.ok((await nav.locator('a').count()) >= 1, `${id}: no previous or next`);

    // Everything the page says, its folded text opened.
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    const text = await page.locator('body').innerText();
    for (const word of INTERNAL) assert.doesNotMatch(text, word, `${id} speaks of how it was made`);
    assert.deepEqual(page.errors, [], id);
    await closePage(page);
  }
  assert.equal(titles.size, pages.length, 'every page a title of its own');

  // The course leads on to the lab, and the lab to the reference.
  const last = await openPage(site.browser, `${site.url}?lesson=${lessons.at(-1)}`);
  assert.equal(await last.getByTestId('lesson-next').getAttribute('href'), '?lesson=litmus');
  const lab = await openPage(site.browser, `${site.url}?lesson=litmus`);
  assert.equal(await lab.getByTestId('lesson-prev').getAttribute('href'), `?lesson=${lessons.at(-1)}`);
  assert.equal(await lab.getByTestId('lesson-next').getAttribute('href'), '?lesson=cuda-map');
  assert.deepEqual([...last.errors, ...lab.errors], []);
});

test("the site's terms show their meaning on hover and on keyboard focus", async () => {
  const page = await openPage(site.browser, `${site.url}?lesson=barrier`);
  await page.getByTestId('model-player').waitFor();
  const term = page.locator('[data-testid=lead] .term').first();
  assert.equal(await term.getAttribute('data-term'), 'workgroup');
  const meaning = term.locator('.gloss');
  assert.equal(await meaning.isVisible(), false);
  await term.focus();
  assert.ok(await meaning.isVisible(), 'shown on focus');
  assert.match(await meaning.textContent(), /block, in CUDA/);
  await page.mouse.move(0, 0);
  await term.evaluate((e) => e.blur());
  assert.equal(await meaning.isVisible(), false, 'hidden again once focus leaves');
  await term.hover();
  assert.ok(await meaning.isVisible(), 'shown on hover');
  assert.deepEqual(page.errors, []);
});
