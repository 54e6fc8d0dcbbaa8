// Random query strings (100; more with SYNCSCOPE_FUZZ_QUERIES), then random values typed into the GPU form: no panic, no
// console error, and a message naming each parameter the page refused.
//
// Values are drawn so the test knows which are acceptable: a good value, a number out of
// range, or junk that no parameter accepts. Random keys the page does not know are ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './support/fixture.mjs';
import { launch, lessonIds, openPage, waitForGpu } from './support/browser.mjs';

// 100 by default: each is a page load of about 0.3 s of the machine's whole time (two pages
// loading at once took as long); 500 were a quarter of the browser tests' time in CI, 200 still
// the largest single test. The host's tests put 5,000 random values of every parameter through
// the same parsers; here the real page is checked not to panic and to name what it refused.
// The same seed's first 100 of any longer run, so SYNCSCOPE_FUZZ_QUERIES=5000 goes further along
// the same sequence.
const QUERIES = Number(process.env.SYNCSCOPE_FUZZ_QUERIES ?? 100);

/** A small seeded generator (mulberry32), so a failure can be replayed from its seed. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const JUNK = ['', ' ', 'abc', '-1', '1e9', '0x10', '3.5', '∞', 'NaN', '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>',
  '%00', '\u0000', '\u202e', '🙂', 'null', 'undefined', '1;2', '__proto__', 'constructor', 'x'.repeat(5000)];

// For each parameter: good values, and values just outside what it accepts.
const PARAMS = {
  // Filled in from the site's index before the test runs.
  lesson: { good: [], bad: ['nope', 'RACE', 'race '] },
  variant: { good: ['racy', 'atomic'], bad: ['Racy', 'fast'] },
  threads: { good: ['2', '5', '8', '64'], bad: ['0', '1', '65', '1000'] },
  schedule: { good: ['lockstep', 'round-robin', 'random', 'serial', 'manual'], bad: ['Lockstep', 'roundrobin'] },
  seed: { good: ['0', '42', '18446744073709551615'], bad: ['18446744073709551616'] },
  step: { good: ['0', '1', '3'], bad: ['10001', '99999999999'] },
  invocations: { good: ['1', '64', '1024', '4194304'], bad: ['0', '4194305'] },
  workgroup: { good: ['1', '64', '256', '1024'], bad: ['0', '1025'] },
  ticks: { good: ['0', '1,0', '0_1'], bad: ['0,,1', '0_0', '-1'] },
  // Read only by the atomic-ops lesson; whether a value is refused is decided by `refusedByAtomicOps`.
  op: { good: ['add', 'max', 'compare-exchange-weak', 'load'], bad: ['nand', 'Add', 'atomicAdd'] },
  type: { good: ['u32', 'i32'], bad: ['f32', 'U32'] },
  initial: { good: ['0', '7', '0xff', '-5'], bad: ['4294967296', '-2147483649', '0x123456789'] },
  compare: { good: ['0', '1', '0xFFFFFFFF'], bad: ['99999999999', '1.5'] },
  operands: { good: ['1,2', '5,-1,3', '0x10,0x20,0x30,0x40'], bad: ['1', '1,,2', Array(17).fill('1').join(',')] },
};
const ATOMIC_KEYS = ['op', 'type', 'initial', 'compare', 'operands'];
const OPS = ['load', 'store', 'add', 'sub', 'max', 'min', 'and', 'or', 'xor', 'exchange', 'compare-exchange-weak'];

/** Whether the atomic-ops lesson accepts `text` as a value of a cell of `type` (mirrors parse_value). */
function acceptsValue(text, type) {
  const t = text.trim();
  const hex = t.match(/^0[xX]([0-9a-fA-F]{1,8})$/);
  if (hex) return true;
  if (/^0[xX]/.test(t) || !/^[+-]?\d+$/.test(t)) return false;
  const n = BigInt(t);
  return type === 'i32' ? n >= -(2n ** 31n) && n < 2n ** 31n : n >= 0n && n < 2n ** 32n;
}

function refusedByAtomicOps(key, value, type) {
  if (key === 'op') return !OPS.includes(value);
  if (key === 'type') return !['u32', 'i32'].includes(value);
  if (key === 'operands') {
    const parts = value.split(',');
    return parts.length < 2 || parts.length > 16 || parts.some((p) => !acceptsValue(p, type));
  }
  return !acceptsValue(value, type);
}
const PAGE_ONLY = ['embed', 'debug'];

function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

function randomQuery(r) {
  const params = new URLSearchParams();
  const refused = new Set();
  const count = 1 + Math.floor(r() * 6);
  for (let i = 0; i < count; i++) {
    const roll = r();
    if (roll < 0.1) {
      params.append(pick(r, PAGE_ONLY), pick(r, ['1', '0', 'yes', '']));
      continue;
    }
    if (roll < 0.2) {
      params.append(`k${Math.floor(r() * 1000)}`, pick(r, JUNK)); // unknown: ignored
      continue;
    }
    // Most queries name a lesson first, so the lessons' own parameters get read and refused.
    const key = i === 0 && roll < 0.8 ? 'lesson' : pick(r, Object.keys(PARAMS));
    const kind = key === 'lesson' && i === 0 ? r() * 0.6 : r();
    const value = kind < 0.5 ? pick(r, PARAMS[key].good) : kind < 0.75 ? pick(r, PARAMS[key].bad) : pick(r, JUNK);
    const bad = kind >= 0.5 && !(key === 'ticks' && value === '') && !ATOMIC_KEYS.includes(key);
    // URLSearchParams.get sees the first value for a key; later duplicates are not read.
    if (!params.has(key) && bad) refused.add(key);
    params.append(key, value);
  }
  // Lesson parameters are read by the lesson: on the index (no lesson, or an unknown one)
  // only `lesson` itself can be refused.
  const lesson = params.get('lesson');
  if (!PARAMS.lesson.good.includes(lesson)) {
    for (const key of [...refused]) if (key !== 'lesson') refused.delete(key);
  }
  if (lesson === 'atomic-ops') {
    const type = params.get('type') === 'i32' ? 'i32' : 'u32';
    for (const key of ATOMIC_KEYS) {
      if (params.has(key) && refusedByAtomicOps(key, params.get(key), type)) refused.add(key);
    }
  }
  // Only the race lesson has variants; the others read no `variant`.
  if (lesson !== 'race') refused.delete('variant');
  if (lesson === '') refused.delete('lesson');
  return { query: params.toString(), refused };
}

/** What a loaded page shows: the messages, and anything markup-like that should not be there. */
function inspect() {
  return {
    errors: document.querySelector('[data-testid=param-error]')?.textContent ?? '',
    rendered: document.querySelector('main#main')?.children.length ?? 0,
    injected: document.querySelectorAll('main img, main script, main iframe').length,
  };
}

const site = useSite({ webgpu: false });

test(`${QUERIES} random query strings: no panic, no console error, every refusal explained`, async () => {
  PARAMS.lesson.good = await lessonIds(site.browser, site.url);
  assert.ok(PARAMS.lesson.good.includes('race'), PARAMS.lesson.good.join());
  const r = rng(20261122);
  const page = await openPage(site.browser, site.url);
  let refusals = 0;
  for (let i = 0; i < QUERIES; i++) {
    const { query, refused } = randomQuery(r);
    page.errors.length = 0;
    await page.goto(`${site.url}?${query}`);
    await page.waitForFunction(() => document.querySelector('main#main')?.children.length > 0);
    const seen = await page.evaluate(inspect);
    const where = `query #${i}: ?${query.slice(0, 300)}`;
    assert.deepEqual(page.errors, [], where);
    assert.ok(seen.rendered > 0, `${where}: nothing rendered`);
    assert.equal(seen.injected, 0, `${where}: markup from the URL`);
    for (const key of refused) {
      assert.ok(seen.errors.includes(`${key}=`), `${where}: no message for ${key} (messages: ${seen.errors})`);
      refusals++;
    }
  }
  assert.ok(refusals > QUERIES / 4, `the generator refused too little (${refusals})`);
});

test('random sizes typed into the GPU form: a result or a clear message, never a panic', async () => {
  const browser = await launch({ webgpu: true });
  try {
    const r = rng(7);
    const page = await openPage(browser, `${site.url}?lesson=race`);
    await waitForGpu(page);
    const sizes = ['1', '7', '64', '1000', '65536', '0', '-5', '4194305', '99999999999', '1e3', ' 12 ', 'abc', '', '²'];
    const groups = ['1', '3', '64', '256', '1024', '0', '2000', 'x', ''];
    for (let i = 0; i < 40; i++) {
      const n = pick(r, sizes);
      const w = pick(r, groups);
      await page.getByTestId('gpu-invocations').fill(n);
      await page.getByTestId('gpu-workgroup').fill(w);
      await page.getByTestId('gpu-run').click();
      await page.waitForFunction(
        () =>
          !document.querySelector('[data-testid=gpu-run]').disabled &&
          (document.querySelector('[data-testid=gpu-error]') || document.querySelector('[data-testid=gpu-report]')),
        null,
        { timeout: 60_000 },
      );
      const error = await page.getByTestId('gpu-error').count();
      const where = `invocations=${JSON.stringify(n)} workgroup=${JSON.stringify(w)}`;
      if (error) {
        const message = await page.getByTestId('gpu-error').textContent();
        assert.match(message, /invocations|workgroup/, `${where}: ${message}`);
      } else {
        assert.equal(await page.getByTestId('gpu-verdict').getAttribute('data-ok'), 'true', where);
        assert.equal((await page.getByTestId('gpu-expected').textContent()).trim(), n.trim(), where);
      }
      assert.deepEqual(page.errors, [], where);
    }
  } finally {
    await browser.close();
  }
});
