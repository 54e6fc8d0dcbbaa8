// scripts/boot-script.mjs and what it does to Trunk's index.html (scripts/lib/boot.mjs).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { UnexpectedOutput, bootFileName, contentHash, moveInlineBoot } from '../lib/boot.mjs';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const SCRIPT = path.join(import.meta.dirname, '..', 'boot-script.mjs');
const read = (...parts) => fs.readFileSync(path.join(FIXTURES, ...parts), 'utf8');

// The start-up script of trunk-release/index.html, as `trunk build --release` minifies it.
const RELEASE_BOOT =
  'import o,*as t from"./syncscope-ebb248dfe21a4994.js";const i=await o({module_or_path:"./syncscope-67fa47acd32668ac_bg.wasm"});' +
  'window.wasmBindings=t,dispatchEvent(new CustomEvent("TrunkApplicationStarted",{detail:{wasm:i}}))';
const RELEASE_NAME = 'boot-28c829af768873bc.js';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'boot-script-'));
after(() => fs.rmSync(TMP, { recursive: true, force: true }));

// A copy of fixture folder `name` to run the hook in, as Trunk's staging folder.
function staging(name) {
  const dir = fs.mkdtempSync(path.join(TMP, `${name}-`));
  fs.cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

const hook = (env) => spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });

describe('contentHash', () => {
  test('is the first 16 hex digits of SHA-256', () => {
    assert.equal(contentHash('abc'), 'ba7816bf8f01cfea');
  });

  test('hashes its arguments one after another, strings and bytes alike', () => {
    assert.equal(contentHash('a', Buffer.from('b'), 'c'), 'ba7816bf8f01cfea');
    assert.notEqual(contentHash('b', 'a', 'c'), 'ba7816bf8f01cfea');
  });

  test('names a start-up script after its content', () => {
    assert.equal(bootFileName('abc'), 'boot-ba7816bf8f01cfea.js');
  });
});

describe('moveInlineBoot', () => {
  test('takes the minified start-up script out of a release build', () => {
    const html = read('trunk-release', 'index.html');
    const inline = `<script type=module>${RELEASE_BOOT}</script>`;
    assert.ok(html.includes(inline));
    assert.deepEqual(moveInlineBoot(html), {
      name: RELEASE_NAME,
      body: `${RELEASE_BOOT}\n`,
      html: html.replace(inline, `<script type="module" src="./${RELEASE_NAME}"></script>`),
    });
  });

  test('takes the start-up script out of a debug build, trimmed', () => {
    const html = read('trunk-dev', 'index.html');
    const moved = moveInlineBoot(html);
    assert.equal(
      moved.body,
      "import init, * as bindings from './syncscope-1c9a4e1e0d1a2b3c.js';\n" +
        "const wasm = await init({ module_or_path: './syncscope-1c9a4e1e0d1a2b3c_bg.wasm' });\n" +
        '\n\nwindow.wasmBindings = bindings;\n\n\n' +
        'dispatchEvent(new CustomEvent("TrunkApplicationStarted", {detail: {wasm}}));\n',
    );
    assert.equal(moved.name, 'boot-892451ea08ca72ba.js');
    assert.equal(moved.name, bootFileName(moved.body));
    const [before, after] = html.split(/<script type="module">[\s\S]*?<\/script>/);
    assert.equal(moved.html, `${before}<script type="module" src="./boot-892451ea08ca72ba.js"></script>${after}`);
  });

  test('moves only the first inline module script', () => {
    const html = `<head><script type=module>import a from"./a.js";a()</script><script type=module>import b from"./b.js"</script></head>`;
    assert.equal(
      moveInlineBoot(html).html,
      `<head><script type="module" src="./${bootFileName('import a from"./a.js";a()\n')}"></script><script type=module>import b from"./b.js"</script></head>`,
    );
  });

  const refused = {
    'no inline script': '<!doctype html><title>x</title><body></body>',
    'an inline script that imports nothing': '<!doctype html><script type="module">console.log(1)</script>',
    'a classic script': '<!doctype html><script>import("./x.js")</script>',
    'a start-up script already moved out': read('trunk-release', 'index.html').replace(/<script type=module>[\s\S]*?<\/script>/, `<script type="module" src="./${RELEASE_NAME}"></script>`),
  };
  for (const [what, html] of Object.entries(refused)) {
    test(`refuses ${what}, showing the page`, () => {
      assert.throws(() => moveInlineBoot(html), (error) => {
        assert.ok(error instanceof UnexpectedOutput);
        assert.equal(error.message, `no inline start-up script in index.html; Trunk changed its output?\n${html}`);
        return true;
      });
    });
  }
});

describe('node scripts/boot-script.mjs', () => {
  test('writes the start-up script beside index.html and loads it from there', () => {
    const dir = staging('trunk-release');
    const html = read('trunk-release', 'index.html');
    const run = hook({ TRUNK_STAGING_DIR: dir });
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, '');
    assert.equal(run.status, 0);
    assert.deepEqual(fs.readdirSync(dir).sort(), [RELEASE_NAME, 'index.html']);
    assert.equal(fs.readFileSync(path.join(dir, RELEASE_NAME), 'utf8'), `${RELEASE_BOOT}\n`);
    assert.equal(
      fs.readFileSync(path.join(dir, 'index.html'), 'utf8'),
      html.replace(`<script type=module>${RELEASE_BOOT}</script>`, `<script type="module" src="./${RELEASE_NAME}"></script>`),
    );
  });

  test('run twice, fails the second time and leaves the folder as it was', () => {
    const dir = staging('trunk-release');
    assert.equal(hook({ TRUNK_STAGING_DIR: dir }).status, 0);
    const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    const run = hook({ TRUNK_STAGING_DIR: dir });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, `boot-script.mjs: no inline start-up script in index.html; Trunk changed its output?\n${html}\n`);
    assert.deepEqual(fs.readdirSync(dir).sort(), [RELEASE_NAME, 'index.html']);
    assert.equal(fs.readFileSync(path.join(dir, 'index.html'), 'utf8'), html);
  });

  test('fails without TRUNK_STAGING_DIR', () => {
    const run = hook({});
    assert.equal(run.status, 1);
    assert.equal(run.stderr, 'boot-script.mjs: TRUNK_STAGING_DIR is not set (run it from trunk as a hook)\n');
  });
});
