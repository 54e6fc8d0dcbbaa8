// A page's words as a reader sees them, for e2e/words.test.mjs and the snapshot it compares
// against (e2e/support/snapshot_words.mjs): what the lead and the folded text say, line by line,
// and the names of the page's misconception blocks.
import fs from 'node:fs';
import path from 'node:path';
import { openPage } from './browser.mjs';

/** The `?lesson=` ids of the README's lesson table, in its order. */
export function lessonIdsInReadme() {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
  const table = readme.split('\n## Lessons\n')[1]?.split('\n## ')[0] ?? '';
  const ids = [...table.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
  if (ids.length === 0) throw new Error("README.md's lesson table lists no lesson");
  return ids;
}

/**
 * Opens `?lesson=<id>` and reads its words: `lead`, the lines of the paragraph at the top;
 * `background`, the lines of the text folded under the model (its `.prose` blocks: the words
 * files' text, not the tables or links a page puts beside it), opened as a reader would; and
 * `misconceptions`, the `data-misconception` of every `.misconception` block on the page, in
 * order (`null` for a block without one). A line is one block's text, its whitespace collapsed,
 * without the glossary's tooltips (they show where a term is first used, not the words).
 */
export async function readWords(browser, url, id) {
  const page = await openPage(browser, `${url}?lesson=${id}`);
  await page.locator('[data-testid=lead], article.lesson > .prose').first().waitFor();
  const words = await page.evaluate(() => {
    const fold = document.querySelector('details[data-testid=background]');
    if (fold) fold.open = true;
    const lines = (root) => {
      const out = [];
      let line = '';
      const flush = () => {
        const text = line.replace(/\s+/g, ' ').trim();
        if (text) out.push(text);
        line = '';
      };
      const walk = (node) => {
        if (node.nodeType === Node.TEXT_NODE) {
          line += node.data;
          return;
        }
        if (node.nodeType !== Node.ELEMENT_NODE || node.matches('.gloss, summary, script, style, template')) return;
        if (node.tagName === 'BR') return flush();
        const display = getComputedStyle(node).display;
        if (display === 'none') return;
        const block = !display.startsWith('inline') && display !== 'contents';
        if (block) flush();
        for (const child of node.childNodes) walk(child);
        if (block) flush();
      };
      if (root) walk(root);
      flush();
      return out;
    };
    const lead = document.querySelector('[data-testid=lead]') ?? document.querySelector('article.lesson > .prose');
    return {
      lead: lines(lead),
      background: fold ? [...fold.querySelectorAll('.prose')].flatMap(lines) : [],
      misconceptions: [...document.querySelectorAll('.misconception')].map((b) => b.getAttribute('data-misconception')),
    };
  });
  return { page, words };
}
