// The playground: a reader's kernel read by naga in the page and by the browser's own compiler,
// run once to its end to find its races, stepped, and run on the GPU (SwiftShader here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useSite } from './support/fixture.mjs';
import { closePage, openPage, screenshotPath, waitForGpu } from './support/browser.mjs';

const site = useSite();
const SHADERS = path.resolve(import.meta.dirname, '..', 'shaders');
const shader = (lesson, file) => fs.readFileSync(path.join(SHADERS, lesson, file), 'utf8');

/** The playground opened on `wgsl` (the starter when none), with more link parameters. */
async function openKernel(wgsl, params = {}, options = {}) {
  const query = new URLSearchParams({ lesson: 'playground', ...(wgsl === undefined ? {} : { wgsl }), ...params });
  const page = await openPage(site.browser, `${site.url}?${query}`, options);
  await page.getByTestId('naga-verdict').waitFor();
  return page;
}

/** The counts the page sets once it has run the kernel to its end. */
async function verdicts(page) {
  const v = page.getByTestId('playground-verdicts');
  await v.waitFor();
  return {
    races: Number(await v.getAttribute('data-races')),
    divergence: Number(await v.getAttribute('data-divergence')),
    unfinished: (await v.getAttribute('data-unfinished')) === 'true',
    text: await v.textContent(),
  };
}

// The starter's line that races with itself.
const SUM_LINE = shader('playground', 'starter.wgsl').split('\n').findIndex((l) => l.includes('total = total + 1u')) + 1;

const ATOMIC_SUM = `@group(0) @binding(0) var<storage, read_write> total: atomic<u32>;

@compute @workgroup_size(8)
fn main() {
    atomicAdd(&total, 1u);
}
`;

test('the index links the playground, whose starter races and names both its lines', async () => {
  const home = await openPage(site.browser, site.url);
  await home.getByTestId('playground-list').locator('a').click();
  await home.getByTestId('playground-verdicts').waitFor();
  const v = await verdicts(home);
  assert.ok(v.races >= 1, v.text);
  assert.equal(v.divergence, 0);
  assert.match(v.text, new RegExp(`A data race on total\\[0\\]: thread \\d+ (reads|writes) it at line ${SUM_LINE}, thread \\d+ (reads|writes) it at line ${SUM_LINE}`));
  // The finding's line selects that line of the editor.
  await home.getByTestId(`finding-line-${SUM_LINE}`).first().click();
  const selected = await home.getByTestId('playground-source').evaluate((t) => t.value.slice(t.selectionStart, t.selectionEnd));
  assert.equal(selected.trim(), 'total = total + 1u;');
  // And the run that found it, replayed in the model to the step that made it.
  const show = home.getByTestId('finding-show').first();
  const at = Number((await show.textContent()).match(/step (\d+)/)[1]);
  await show.click();
  assert.match(await home.getByTestId('step-index').textContent(), new RegExp(`step ${at} /`));
  // The model steps the reader's kernel: its lines are marked as it goes.
  await home.keyboard.press('End');
  assert.match(await home.getByTestId('step-index').textContent(), /step (\d+) \/ \1/);
  assert.deepEqual(home.errors, []);
  await closePage(home);
});

test('an edit that deletes a barrier makes a race appear, and one that restores it takes it away', async () => {
  const kernel = `var<workgroup> cells: array<u32, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    cells[i] = i + 1u;
    workgroupBarrier();
    out[i] = cells[(i + 1u) % 4u];
}
`;
  const page = await openKernel(kernel);
  assert.equal((await verdicts(page)).races, 0);
  const source = page.getByTestId('playground-source');
  await source.fill(kernel.replace('    workgroupBarrier();\n', ''));
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=playground-verdicts]')?.dataset.races) > 0);
  const v = await verdicts(page);
  assert.match(v.text, /cells\[\d\]/);
  assert.match(v.text, /line 6/);
  assert.match(v.text, /line 7/);
  // The link follows the edit: opened again, it shows the same race.
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-link-pending'));
  const again = await openPage(site.browser, page.url());
  assert.ok((await verdicts(again)).races > 0);
  await closePage(again);
  await source.fill(kernel);
  await page.waitForFunction(() => document.querySelector('[data-testid=playground-verdicts]')?.dataset.races === '0');
  assert.deepEqual(page.errors, []);
  await closePage(page);
});

/** What each kernel the site ships is, as its lesson says (the host test reads the same file). */
const VERDICTS = fs
  .readFileSync(path.resolve(import.meta.dirname, '..', 'src', 'lessons', 'playground', 'verdicts.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .map((l) => l.split('\t'));

test("every kernel the site ships opens by a link with its text alone, and is what its lesson says", async () => {
  assert.ok(VERDICTS.length >= 60, `${VERDICTS.length} kernels`);
  const page = await openPage(site.browser, `${site.url}?lesson=playground`);
  for (const [kernel, verdict] of VERDICTS) {
    const [lesson, file] = kernel.split('/');
    // After the `#`, as the site's own links carry a long kernel (no server sees it, so none
    // refuses a long request line); a blank page between, as a change after `#` alone is no
    // navigation.
    const wgsl = new URLSearchParams({ wgsl: shader(lesson, file) });
    await page.goto('about:blank');
    await page.goto(`${site.url}?lesson=playground#${wgsl}`);
    const naga = page.getByTestId('naga-verdict');
    await page.waitForFunction(() => !/reading/.test(document.querySelector('[data-testid=naga-verdict]')?.textContent ?? 'reading'));
    assert.match(await naga.textContent(), /taken/, `${kernel}: ${await naga.textContent()}`);
    const v = page.getByTestId('playground-verdicts');
    await v.waitFor();
    const count = async (name) => Number(await v.getAttribute(`data-${name}`));
    const text = `${kernel} (${verdict}): ${await v.textContent()}`;
    if (verdict === 'race-free') {
      for (const name of ['races', 'divergence', 'out-of-bounds', 'spins']) assert.equal(await count(name), 0, `${name}: ${text}`);
      assert.equal(await v.getAttribute('data-unfinished'), 'false', text);
    } else if (verdict === 'race') {
      assert.ok((await count('races')) >= 1, text);
    } else {
      assert.equal(verdict, 'lost-update', text);
      assert.equal(await count('races'), 0, text);
      // The update lost between atomics shows as more than one way to end.
      const outcomes = page.getByTestId('model-outcomes');
      await outcomes.waitFor({ timeout: 60_000 });
      assert.ok(Number(await outcomes.getAttribute('data-model-outcomes')) > 1, `${kernel}: ${await outcomes.textContent()}`);
    }
  }
  assert.deepEqual(page.errors, []);
  await closePage(page);
});

test('a kernel written to race names its two lines', async () => {
  const racy = `@group(0) @binding(0) var<storage, read_write> shared_word: u32;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    shared_word = i;
}
`;
  const page = await openKernel(racy);
  const v = await verdicts(page);
  assert.equal(v.races, 1, v.text);
  assert.match(v.text, /thread 0 writes it at line 4, thread 1 writes it at line 4/);
  await closePage(page);
});

test('a barrier in a branch: naga takes it and the run finds it not reached; the browser refuses it', async () => {
  const kernel = `@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    if i < 2u {
        workgroupBarrier();
    }
    out[i] = i;
}
`;
  const page = await openKernel(kernel);
  const v = await verdicts(page);
  assert.ok(v.divergence >= 1, v.text);
  assert.match(await page.getByTestId('naga-verdict').textContent(), /taken/);
  await waitForGpu(page);
  const browser = page.getByTestId('browser-verdict');
  await page.waitForFunction(() => document.querySelector('[data-testid=browser-verdict]')?.dataset.accepted !== undefined);
  assert.equal(await browser.getAttribute('data-accepted'), 'false');
  assert.match(await browser.textContent(), /uniform/i);
  assert.deepEqual(page.errors, []);
  await closePage(page);
});

test('the GPU runs an atomicAdd counter: one outcome, equal to the invocation count', async () => {
  const page = await openKernel(ATOMIC_SUM, { workgroups: '4' });
  assert.equal((await verdicts(page)).races, 0);
  await waitForGpu(page);
  await page.waitForFunction(() => document.querySelector('[data-testid=browser-verdict]')?.dataset.accepted === 'true');
  await page.getByTestId('playground-runs').fill('50');
  await page.getByTestId('playground-runs').dispatchEvent('change');
  await page.getByTestId('gpu-run').click();
  const outcomes = page.getByTestId('playground-outcomes');
  await outcomes.waitFor();
  assert.equal(await outcomes.getAttribute('data-gpu-outcomes'), '1');
  assert.match(await outcomes.textContent(), /All 50 dispatches ended with the same memory/);
  assert.match(await outcomes.locator('tbody').textContent(), /50\s*total = 32/);
  // The model reaches it too: the one memory it can end with.
  assert.equal(await outcomes.getAttribute('data-beyond-model'), '0');
  assert.equal(await page.getByTestId('model-outcomes').getAttribute('data-model-outcomes'), '1');
  for (const [width, scheme] of [[375, 'dark'], [1280, 'light']]) {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: screenshotPath(`playground-gpu-${width}-${scheme}`), fullPage: true });
  }
  assert.deepEqual(page.errors, []);
  await closePage(page);
});

test('bad input gets a clear message and a working page: empty, binary, 1 MB, deep nesting, no entry point, sizes', async () => {
  const inputs = [
    ['', /no kernel/],
    ['\u0000\u0001\u0002', /line 1/],
    ['x'.repeat(1 << 20), /at most 64 KB/],
    ['{'.repeat(10000), /./],
    ['fn helper() {}', /compute|entry/i],
    ['@compute @workgroup_size(1024)\nfn main() {}', /at most 256/],
    ['@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n@compute @workgroup_size(1)\nfn main() { loop { } }', /./],
  ];
  for (const [source, message] of inputs) {
    const page = await openPage(site.browser, `${site.url}?lesson=playground`);
    await page.getByTestId('playground-verdicts').waitFor();
    await page.getByTestId('playground-source').fill(source);
    await page.waitForFunction(() => document.querySelector('[data-testid=naga-verdict]')?.getAttribute('role') === 'alert' || document.querySelector('[data-testid=playground-verdicts]')?.dataset.spins > 0, null, { timeout: 20_000 });
    const said = (await page.getByTestId('naga-verdict').textContent()) + (await page.evaluate(() => document.querySelector('[data-testid=playground-verdicts]')?.textContent ?? ''));
    assert.match(said, message, `${JSON.stringify(source.slice(0, 40))}: ${said}`);
    // Still working: the starter typed back is read again.
    await page.getByTestId('playground-source').fill(shader('playground', 'starter.wgsl'));
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=playground-verdicts]')?.dataset.races) > 0);
    assert.deepEqual(page.errors, [], JSON.stringify(source.slice(0, 40)));
    await closePage(page);
  }
  // A link's bad values are said, and the page opens on what it could follow.
  const page = await openKernel(undefined, { workgroups: '99', buffers: 'total=seven' });
  assert.match(await page.getByTestId('param-error').textContent(), /workgroups/);
  assert.match(await page.getByTestId('param-error').textContent(), /seven/);
  assert.ok((await verdicts(page)).races > 0);
  await closePage(page);
});

test('a race found, at 375 and 1280 px, light and dark', async () => {
  for (const [width, scheme] of [[375, 'light'], [375, 'dark'], [1280, 'light'], [1280, 'dark']]) {
    const page = await openKernel(undefined, {}, { viewport: { width, height: 900 }, colorScheme: scheme, reducedMotion: 'reduce' });
    await verdicts(page);
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${width} px: ${overflow} px too wide`);
    await page.screenshot({ path: screenshotPath(`playground-race-${width}-${scheme}`), fullPage: true });
    assert.deepEqual(page.errors, []);
    await closePage(page);
  }
});

test("a lesson's code view opens its kernel in the playground, its work sized by the playground's run", async () => {
  const lesson = await openPage(site.browser, `${site.url}?lesson=barrier&threads=6`);
  const link = lesson.getByRole('link', { name: 'Change it in the playground' });
  await link.waitFor();
  const href = await link.getAttribute('href');
  // The kernel's text, too long for a query a server must take, travels after the `#`.
  assert.match(href, /^\?lesson=playground#wgsl=/);
  await link.click();
  await lesson.getByTestId('playground-verdicts').waitFor();
  assert.equal(await lesson.getByTestId('playground-source').inputValue(), shader('barrier', 'barrier.wgsl'));
  // Its own `// playground:` line asks for workgroups of 8, and `params.invocations` starts
  // as the run's 8 invocations.
  assert.match(shader('barrier', 'barrier.wgsl'), /\/\/ playground: workgroup_size=8\n$/);
  assert.equal(await lesson.getByTestId('fill-params').inputValue(), '8');
  // A runtime-sized array has one element per invocation, and the field says how many.
  assert.equal(await lesson.getByTestId('playground-elements').inputValue(), '8');
  const v = await verdicts(lesson);
  assert.equal(v.races, 0, v.text);
  assert.equal(v.divergence, 0, v.text);
  assert.deepEqual(lesson.errors, []);
  await closePage(lesson);
});

test('the model lists every total the starter can end with, steps the order behind each, and the GPU stays among them', async () => {
  const page = await openKernel(undefined);
  const list = page.getByTestId('model-outcomes');
  await list.waitFor();
  assert.equal(await list.getAttribute('data-every-order'), 'true');
  assert.equal(await list.getAttribute('data-model-outcomes'), '4');
  await list.locator('summary').click();
  const rows = await list.locator('li code').allTextContents();
  assert.deepEqual(rows.map((r) => r.match(/total = (\d+)/)[1]).sort(), ['1', '2', '3', '4']);
  // The order that loses the most updates, stepped in the model to its end.
  const lowest = rows.findIndex((r) => r.startsWith('total = 1;'));
  await list.locator('li').nth(lowest).getByRole('button').click();
  await page.keyboard.press('End');
  assert.match(await page.getByTestId('model-total').textContent(), /^\s*1\s*$/);
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-link-pending'));
  assert.match(page.url(), /[?&]ticks=/);
  assert.match(page.url(), /schedule=manual/);
  // The GPU's final memories lie among the model's four.
  await waitForGpu(page);
  await page.getByTestId('gpu-run').click();
  const outcomes = page.getByTestId('playground-outcomes');
  await outcomes.waitFor();
  assert.equal(await outcomes.getAttribute('data-beyond-model'), '0');
  assert.deepEqual(page.errors, []);
  await closePage(page);
});

test("a finding's two invocations are marked in the scene at the step that made it, and only there", async () => {
  const page = await openKernel(undefined);
  const show = page.getByTestId('finding-show').first();
  const at = Number((await show.textContent()).match(/step (\d+)/)[1]);
  const finding = await page.locator('[data-finding=race]').first().textContent();
  const [, first, second] = finding.match(/thread (\d+) \w+ it at line \d+, thread (\d+)/);
  await show.click();
  assert.match(await page.getByTestId('step-index').textContent(), new RegExp(`step ${at} /`));
  for (const t of [first, second]) {
    const mark = page.getByTestId(`scene-span-${t}`);
    await mark.waitFor();
    assert.match(await mark.textContent(), new RegExp(`race, line ${SUM_LINE}`));
  }
  await page.getByTestId(`scene-span-${first}`).scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('playground-finding-marked'), fullPage: false });
  // A step on, the marks are gone: they belong to the step that made the finding.
  await page.getByTestId('model-step').click();
  assert.equal(await page.locator('[data-testid^=scene-span-]:visible').count(), 0, 'the starter names no span of lines');
  assert.deepEqual(page.errors, []);
  await closePage(page);
});

test('a kernel the model finds no end to runs on the GPU only once the reader says so', async () => {
  const endless = `@group(0) @binding(0) var<storage, read_write> flag: atomic<u32>;

@compute @workgroup_size(2)
fn main() {
    loop {
        if atomicLoad(&flag) == 1u { break; }
    }
}
`;
  const page = await openKernel(endless);
  assert.equal((await verdicts(page)).unfinished, true);
  await waitForGpu(page);
  const warning = page.getByTestId('unending-warning');
  await warning.waitFor();
  assert.match(await warning.textContent(), /watchdog/);
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('run-held').waitFor();
  // Nothing was dispatched (a kernel that never ends would hang the browser's GPU here).
  assert.equal(await page.getByTestId('playground-outcomes').count(), 0);
  assert.equal(await page.getByTestId('run-anyway').isChecked(), false);
  assert.deepEqual(page.errors, []);
  await closePage(page);
});

test('a device lost while the playground is open is said plainly, and a new one runs the kernel', async () => {
  const page = await openKernel(ATOMIC_SUM, { workgroups: '2', debug: '1' });
  await waitForGpu(page);
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('playground-outcomes').waitFor();
  await page.evaluate(() => window.syncscope.loseDevice());
  await page.waitForFunction(() => document.querySelector('[data-testid=gpu-status]')?.dataset.state === 'unavailable');
  assert.match(await page.getByTestId('gpu-unavailable').textContent(), /device was lost/);
  // The model carries on without it.
  assert.equal((await verdicts(page)).races, 0);
  await page.getByTestId('gpu-reconnect').click();
  await waitForGpu(page);
  await page.getByTestId('gpu-run').click();
  await page.waitForFunction(() => /All 100 dispatches/.test(document.querySelector('[data-testid=playground-outcomes]')?.textContent ?? ''));
  assert.match(await page.getByTestId('playground-outcomes').locator('tbody').textContent(), /100\s*total = 16/);
  assert.deepEqual(page.errors, []);
  await closePage(page);
});
