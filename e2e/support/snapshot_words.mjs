// Writes e2e/fixtures/words-before.json: every lesson page's words as a built site shows them,
// the snapshot e2e/words.test.mjs compares each page with.
//
//   node e2e/support/snapshot_words.mjs [dist] [out.json]
//
// `dist` is the built site (default: $SYNCSCOPE_DIST, else dist/, as the browser tests take it);
// `out.json` defaults to e2e/fixtures/words-before.json. Made once from the build before the
// words moved into words.html files; after a change of words that is meant, made again from the
// build with the change (and the test's CHANGED list emptied of what it then holds).
import fs from 'node:fs';
import path from 'node:path';
import { launch, closePage } from './browser.mjs';
import { serve } from './server.mjs';
import { lessonIdsInReadme, readWords } from './words.mjs';

// As e2e/support/fixture.mjs takes it (not imported: it brings in node:test).
const DIST = process.env.SYNCSCOPE_DIST ? path.resolve(process.env.SYNCSCOPE_DIST) : path.resolve(import.meta.dirname, '..', '..', 'dist');
const dist = process.argv[2] ? path.resolve(process.argv[2]) : DIST;
const out = process.argv[3] ? path.resolve(process.argv[3]) : path.resolve(import.meta.dirname, '..', 'fixtures', 'words-before.json');
if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist} holds no built site: scripts/build.sh makes one`);

const server = await serve({ root: dist });
const browser = await launch();
try {
  const snapshot = {};
  for (const id of lessonIdsInReadme()) {
    const { page, words } = await readWords(browser, server.url, id);
    if (page.errors.length) throw new Error(`?lesson=${id}: ${page.errors.join('\n')}`);
    if (words.lead.length === 0) throw new Error(`?lesson=${id} shows no lead`);
    snapshot[id] = words;
    await closePage(page);
    console.log(`${id}: ${words.lead.length} + ${words.background.length} lines, ${words.misconceptions.length} misconception blocks`);
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(snapshot, null, 1) + '\n');
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
} finally {
  await browser.close();
  server.close();
}
