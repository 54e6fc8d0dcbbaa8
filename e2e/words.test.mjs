// The words of every page came out of Rust string constants into a words.html file in each
// lesson's folder (docs/words.md). Every page must show the same words as before the move, bar
// the mends listed in CHANGED, and every misconception block keeps its name: each page's lead
// and folded text, read as a reader sees them (e2e/support/words.mjs), against the snapshot
// e2e/fixtures/words-before.json, made from the build before the move by
// e2e/support/snapshot_words.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useSite } from './support/fixture.mjs';
import { closePage } from './support/browser.mjs';
import { lessonIdsInReadme, readWords } from './support/words.mjs';

const site = useSite();
const SNAPSHOT = path.resolve(import.meta.dirname, 'fixtures', 'words-before.json');

/**
 * The changes of words that were meant, by page: each `[before, after]` replaces text in one line
 * of the snapshot's folded text before the comparison. A line that already says `after` (a
 * snapshot made after the change) needs no replacing; one that says neither fails the test.
 * Issue 64's mends: the subgroups page's last-warp reduction is the older unrolled idiom, not
 * the reference articles' (which keep __syncwarp()); the histogram's and the reduction's "What
 * holds" open with what holds; the spinlock's block is headed "What holds"; the barrier's names
 * the claim that is false. Issue 63's: a tile's post is two words, and why halves of two posts
 * are safe; how long each look-back waits (the scan's three dispatches, which read and write the
 * array twice each, not three times, moved with their paragraph into the GPU panel).
 */
const CHANGED = {
  subgroups: [
    // Not a mend: the ballot's mask as the page writes it, a sentence that came with the move (a
    // snapshot made from a build with it needs no replacing).
    [
      "the same mask with one bit per lane whose keep held; subgroupShuffleXor",
      "the same mask with one bit per lane whose keep held (this page writes a mask lane 0 first, a digit per lane: 0010 is lane 2 alone, which a GPU's integer, lane 0 its lowest bit, holds as 4); subgroupShuffleXor",
    ],
    [
      "The GPU panel runs the neighbour read with no barrier and the articles' last-warp reduction, and counts what went wrong;",
      "The GPU panel runs the neighbour read with no barrier and the older, unrolled last-warp reduction this folklore grew from, with no sync at all (in CUDA, volatile; today's guides keep __syncwarp() for the last warp on Volta and later), and counts what went wrong;",
    ],
  ],
  histogram: [
    [
      "What holds: A common estimate expects contention: adds to one address done one after another, so few bins would mean waiting in line, while a histogram of 1M values over 256 bins averages about 4,000 updates per bin, which hardware pipelines well. The H100 below did otherwise: every value in one bin was its fastest case (27.5 µs for 1M values, against 172 to 443 µs for 2 to 256 bins), and at 16M values 4 to 256 bins all took between 4.0 and 5.5 ms. Adds to one address from the lanes of one warp can be combined into a single add before they reach memory, so one busy bin need not mean one add at a time.",
      "What holds: one busy bin need not mean one add at a time. Adds to one address from the lanes of one warp can be combined into a single add before they reach memory. On the H100 below every value in one bin was its fastest case (27.5 µs for 1M values, against 172 to 443 µs for 2 to 256 bins), and at 16M values 4 to 256 bins all took between 4.0 and 5.5 ms. The claim comes from a common estimate that expects contention: adds to one address done one after another, so few bins would mean waiting in line, while a histogram of 1M values over 256 bins averages about 4,000 updates per bin, which hardware pipelines well.",
    ],
  ],
  reduction: [
    [
      "What holds: A common estimate assumes the adds to one address are done one after another: 1,024 of them at about 600 cycles each against some 80 cycles of tree, which it calls roughly 5,000 times slower (its own figures, 614,400 cycles against 80, give about 7,700). A GPU need not work that way: it can combine the adds of one warp to the same address into one. On the H100 below, atomicAdd beat the tree up to 65,536 values and summed 4,194,304 values in about 0.1 ms, far too fast for one add at a time.",
      "What holds: no fixed factor. The adds to one address need not wait for each other: a GPU can combine the adds of one warp to the same address into one. On the H100 below, atomicAdd beat the tree up to 65,536 values and summed 4,194,304 values in about 0.1 ms, far too fast for one add at a time. The figure comes from a common estimate that assumes the adds to one address are done one after another: 1,024 of them at about 600 cycles each against some 80 cycles of tree, which it calls roughly 5,000 times slower (its own figures, 614,400 cycles against 80, give about 7,700).",
    ],
  ],
  spinlock: [
    [
      "No ordering. WGSL's atomics are all relaxed.",
      "What holds: not in WGSL. A lock needs order as well as a compare-exchange, and WGSL's atomics are all relaxed.",
    ],
  ],
  scan: [
    [
      "A tile's state and its value share one atomic word, so nothing else has to become visible first.",
      "A tile's post is two atomic words, each half its value under the state, so nothing else has to become visible first. A look trusts the pair only under one state, and halves of two posts agree: every post of one state for one tile carries the same value.",
    ],
    [
      "The model looks twice before it gives up or falls back, the kernel 64 times.",
      "The model looks twice before it gives up or falls back, the kernel 64 times, or 16,384 without the fallback: milliseconds, not the seconds after which a browser calls a device lost.",
    ],
  ],
  // Issue 61's: the models step the kernels themselves.
  race: [
    [
      "Step the model below, then run the same kernel on your GPU.",
      "Step the model below, then run the same kernel on your GPU. The model steps the kernel itself, one access to shared memory a step: the add happens in the thread's own register, where no other thread can see it, and is taken with the store it feeds.",
    ],
  ],
  barrier: [
    [
      "half the threads wait for the other half, who never come: the model gets stuck there.",
      "half the threads wait for the other half, who never come. What a GPU does then is undefined, which is why the browser refuses to compile such a kernel. The model holds the waiters until every other thread has ended, then lets them go and marks the barrier as one that not every thread reaches.",
    ],
    [
      "“a barrier in divergent code is undefined behaviour: it may hang, or may seem to work.”",
      "“a barrier in divergent code either hangs or does no harm: if the kernel runs to the end, nothing went wrong.”",
    ],
    [
      "may or may not hang. WGSL rejects it",
      "may or may not hang. A kernel that runs to the end may still have produced wrong results, and may hang on another GPU. WGSL rejects it",
    ],
  ],
};

/**
 * Paragraphs that left the folded text for the GPU panel, beside the run or the figures they
 * speak of (the `gpu` and `h100` sections of their words file), by the words they open with.
 * The scan's last three went to keep its page within 200 KB.
 */
const MOVED = {
  scan: ['What is guaranteed on the GPU.', 'What an H100 did.', 'Ordered compaction.', 'Tickets, or the workgroup id.', 'Across workgroups.'],
};

/** The snapshot's words for `id`, with the mends in CHANGED made and the MOVED lines gone. */
function expected(snapshot, id) {
  const words = structuredClone(snapshot[id]);
  for (const opening of MOVED[id] ?? []) {
    const before = words.background.length;
    words.background = words.background.filter((line) => !line.startsWith(opening));
    assert.ok(words.background.length < before, `${id}: the snapshot has no line opening ${JSON.stringify(opening)}`);
  }
  for (const [before, after] of CHANGED[id] ?? []) {
    const at = words.background.filter((line) => line.includes(before));
    if (at.length === 0) {
      assert.ok(words.background.some((line) => line.includes(after)), `${id}: the snapshot says neither ${JSON.stringify(before)} nor what replaces it`);
      continue;
    }
    assert.equal(at.length, 1, `${id}: ${JSON.stringify(before)} is in ${at.length} lines of the snapshot`);
    words.background = words.background.map((line) => line.replace(before, after));
  }
  return words;
}

test('every page shows the words it showed before they moved into words.html', async () => {
  assert.ok(fs.existsSync(SNAPSHOT), `${SNAPSHOT} is missing: node e2e/support/snapshot_words.mjs <dist> makes it from a build of the site`);
  const snapshot = JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8'));
  const ids = lessonIdsInReadme();
  assert.deepEqual(ids.filter((id) => !snapshot[id]), [], 'pages the snapshot lacks');
  for (const id of Object.keys(CHANGED)) assert.ok(ids.includes(id), `CHANGED names ${id}, no page of the README's table`);
  for (const id of ids) {
    const { page, words } = await readWords(site.browser, site.url, id);
    const want = expected(snapshot, id);
    assert.ok(words.lead.length > 0, `${id}: no lead`);
    assert.deepEqual(words.lead, want.lead, `${id}: the lead`);
    assert.deepEqual(words.background, want.background, `${id}: the folded text`);
    // Each misconception block keeps its class and its name, in the order it had.
    assert.ok(!words.misconceptions.includes(null), `${id}: a .misconception block without data-misconception`);
    assert.deepEqual(words.misconceptions, want.misconceptions, `${id}: the misconception blocks`);
    assert.deepEqual(page.errors, [], id);
    await closePage(page);
  }
});
