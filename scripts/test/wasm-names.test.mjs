// scripts/wasm-names.mjs: short names between a page's wasm and its glue, on a wasm the shape of
// a lesson page's main module after wasm-bindgen, and its glue as terser leaves it.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { renameInGlue, shortenNames } from '../wasm-names.mjs';

// A wasm written byte by byte, with an encoder of its own, so a slip in the one under test
// cannot cancel out.
const leb = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};
const name = (s) => [...leb(Buffer.byteLength(s)), ...Buffer.from(s)];
const section = (id, items) => {
  const body = [...leb(items.length), ...items.flat()];
  return [id, ...leb(body.length), ...body];
};
const custom = (title, bytes) => {
  const body = [...name(title), ...bytes];
  return [0, ...leb(body.length), ...body];
};
const wasm = (...sections) => Buffer.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...sections.flat()]);
const FUNC = 0, TABLE = 1, MEMORY = 2, GLOBAL = 3, TAG = 4;
const I32 = 0x7f, FUNCREF = 0x70, EXTERNREF = 0x6f;
const importFunc = (module, field, type) => [...name(module), ...name(field), FUNC, ...leb(type)];
const exportOf = (field, kind, index) => [...name(field), kind, ...leb(index)];

const GLUE = './race_bg.js';
const LOADER = './__wasm_split.js';
const CLOSURE = 'wasm_bindgen_cf8f2c93e6bb35f5___convert__closures_____invoke_______true_';
const CLOSURE_1 = 'wasm_bindgen_cf8f2c93e6bb35f5___convert__closures_____invoke_______true__1_';
const LOAD_GPU_HALF = '__wasm_split_load_gpu_half_2606874835880254052';
// What the split modules' loader reads by name (split-pages.mjs, loaderNames).
const KEEP = new Set(['__indirect_function_table', '__wasm_split_shared0', 'memory']);
const UNUSED = /intounderlying/;

// Types: 0 (i32), 1 (), 2 (i32 i32).
const TYPES = section(1, [[0x60, 1, I32, 0], [0x60, 0, 0], [0x60, 2, I32, I32, 0]]);
// Functions 6 to 10, after the 6 imports; 6 (the start) calls import 5, the externref table's set-up.
const FUNCS = section(3, [[1], [2], [2], [2], [2]]);
const TABLES = section(4, [[FUNCREF, 0, 1], [EXTERNREF, 0, ...leb(128)]]);
const MEMORIES = section(5, [[0, 17]]);
const CODE = section(10, [[4, 0, 0x10, 5, 0x0b], [2, 0, 0x0b], [2, 0, 0x0b], [2, 0, 0x0b], [2, 0, 0x0b]]);
const PRODUCERS = custom('producers', [1, ...name('language'), 1, ...name('Rust'), ...name('')]);

/** The page's main module, with `names` for what it and the glue call each other by. */
const page = (names, { unused = true } = {}) => wasm(
  TYPES,
  section(2, [
    importFunc(GLUE, names.createElement, 2),
    importFunc(GLUE, names.log, 0),
    importFunc(LOADER, LOAD_GPU_HALF, 2),
    importFunc(GLUE, names.queueMicrotask, 0),
    importFunc(GLUE, names.setTimeout, 2),
    importFunc(GLUE, names.initExternrefTable, 1),
  ]),
  FUNCS,
  TABLES,
  MEMORIES,
  section(7, [
    exportOf('memory', MEMORY, 0),
    exportOf(names.externrefs, TABLE, 1),
    ...(unused ? [exportOf('intounderlyingsink_write', FUNC, 10)] : []),
    exportOf(names.malloc, FUNC, 9),
    exportOf('__wasm_split_shared0', FUNC, 9),
    exportOf(names.closure, FUNC, 7),
    exportOf(names.closure1, FUNC, 8),
    ...(unused ? [exportOf('__wbg_intounderlyingsink_free', FUNC, 10)] : []),
    exportOf('__indirect_function_table', TABLE, 0),
    exportOf(names.start, FUNC, 6),
  ]),
  CODE,
  PRODUCERS,
);

const LONG = {
  createElement: '__wbg_createElement_8a7c5bb0e4c1fa4e',
  log: '__wbg_log_0cc1b7768397bcfe',
  queueMicrotask: '__wbg_queueMicrotask_5d15a957e6aa920e',
  setTimeout: '__wbg_setTimeout_4ec014681668a581',
  initExternrefTable: '__wbindgen_init_externref_table',
  externrefs: '__wbindgen_externrefs',
  malloc: '__wbindgen_malloc',
  closure: CLOSURE,
  closure1: CLOSURE_1,
  start: '__wbindgen_start',
};
// Imports first, in their order, then the exports in theirs.
const SHORT = {
  createElement: '$0', log: '$1', queueMicrotask: '$2', setTimeout: '$3', initExternrefTable: '$4',
  externrefs: '$5', malloc: '$6', closure: '$7', closure1: '$8', start: '$9',
};

// The glue of the page above, as wasm-bindgen 0.2.130 writes it and terser minifies it: also what
// split-pages.test.mjs expects its minifier to make of that glue.
const MINIFIED_GLUE = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/race-glue.min.js.txt'), 'utf8');

const RENAMED_GLUE =
  'import*as e from"./__wasm_split.js";let _=null;let n,t=new TextDecoder("utf-8",{ignoreBOM:!0,fatal:!0});function o(e,o){return e>>>=0,t.decode((null!==_&&0!==_.byteLength||(_=new Uint8Array(n.memory.buffer)),_).subarray(e,e+o))}' +
  'function r(){return{__proto__:null,"./race_bg.js":{__proto__:null,$0:function(e,_,n){return e.createElement(o(_,n))},$1:function(e){console.log(e)},' +
  '$2:function(e){queueMicrotask(()=>function(e,_){n.$7(e,_)}(e,0))},' +
  '$3:function(e,_){const t=setTimeout(()=>function(e,_){n.$8(e,_)}(e,0),_);return t},' +
  '$4:function(){const e=n.$5,_=e.grow(4);e.set(0,void 0),e.set(_+0,void 0)}},"./__wasm_split.js":e}}' +
  'function i(e,t){return n=e.exports,_=null,n.$9(),n}function s(e){if(void 0!==n)return n;const _=r();e instanceof WebAssembly.Module||(e=new WebAssembly.Module(e));return i(new WebAssembly.Instance(e,_))}' +
  'async function u(e){if(void 0!==n)return n;const _=r(),{instance:t,module:o}=await WebAssembly.instantiateStreaming(await e,_);return i(t)}export{s as initSync,u as default};';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'wasm-names-'));
after(() => fs.rmSync(TMP, { recursive: true, force: true }));

describe('shortenNames', () => {
  test("renames the glue's imports and the exports, keeps the loader's, drops the unused", () => {
    const { wasm: out, renamed, imported } = shortenNames(page(LONG), GLUE, KEEP, UNUSED);
    assert.deepEqual(out, page(SHORT, { unused: false }));
    assert.deepEqual([...renamed], Object.keys(LONG).map((k) => [LONG[k], SHORT[k]]));
    assert.deepEqual(imported, new Set([LONG.createElement, LONG.log, LONG.queueMicrotask, LONG.setTimeout, LONG.initExternrefTable]));
  });

  test('leaves a valid module with the new names', () => {
    const module = new WebAssembly.Module(shortenNames(page(LONG), GLUE, KEEP, UNUSED).wasm);
    assert.deepEqual(WebAssembly.Module.imports(module).map((i) => `${i.module} ${i.name}`), [
      './race_bg.js $0', './race_bg.js $1', `./__wasm_split.js ${LOAD_GPU_HALF}`, './race_bg.js $2', './race_bg.js $3', './race_bg.js $4',
    ]);
    assert.deepEqual(WebAssembly.Module.exports(module).map((e) => `${e.kind} ${e.name}`), [
      'memory memory', 'table $5', 'function $6', 'function __wasm_split_shared0', 'function $7', 'function $8', 'table __indirect_function_table', 'function $9',
    ]);
  });

  test('drops nothing unless told', () => {
    const { wasm: out, renamed } = shortenNames(page(LONG), GLUE, KEEP);
    assert.deepEqual(WebAssembly.Module.exports(new WebAssembly.Module(out)).map((e) => e.name), [
      'memory', '$5', '$6', '$7', '__wasm_split_shared0', '$8', '$9', '$a', '__indirect_function_table', '$b',
    ]);
    assert.equal(renamed.get('intounderlyingsink_write'), '$6');
    assert.equal(renamed.get('__wbg_intounderlyingsink_free'), '$a');
  });

  test('counts in base 36, past one-byte lengths of sections and names', () => {
    const fields = Array.from({ length: 40 }, (_, i) => `__wbg_f${i}_${(0x1000000000000000n + BigInt(i)).toString(16)}`);
    // A closure shim is named after its whole Rust type: longer than a one-byte length says.
    const shim = `${CLOSURE}${'_wasm_bindgen_cf8f2c93e6bb35f5___sys__JsNullable_wgpu_4c72ef3c1ef20cbb___backend'.repeat(3)}_true__19`;
    assert.equal(Buffer.byteLength(shim), 321);
    const module = (names, last) => wasm(
      section(1, [[0x60, 0, 0]]),
      section(2, names.map((f) => importFunc(GLUE, f, 0))),
      MEMORIES,
      section(7, [exportOf(last, MEMORY, 0)]),
    );
    const { wasm: out, renamed } = shortenNames(module(fields, shim), GLUE, new Set());
    const short = [...renamed.values()];
    assert.deepEqual([short[0], short[9], short[10], short[35], short[36], short[39], short[40]], ['$0', '$9', '$a', '$z', '$10', '$13', '$14']);
    assert.deepEqual(out, module(short.slice(0, 40), '$14'));
  });

  test('copies the description of every kind of import', () => {
    const imports = (last) => wasm(
      section(1, [[0x60, 1, I32, 0]]),
      section(2, [
        [...name('__wasm_split'), ...name('memory'), MEMORY, 1, 17, ...leb(16384)],
        [...name('__wasm_split'), ...name('__indirect_function_table'), TABLE, FUNCREF, 1, 300, ...leb(70000)],
        [...name('__wasm_split'), ...name('__stack_pointer'), GLOBAL, I32, 1],
        [...name('__wasm_split'), ...name('__cpp_exception'), TAG, 0, 0],
        importFunc(GLUE, last, 0),
      ]),
    );
    const out = shortenNames(imports(LONG.log), GLUE, new Set()).wasm;
    assert.deepEqual(out, imports('$0'));
    assert.equal(WebAssembly.Module.imports(new WebAssembly.Module(out)).length, 5);
  });

  test('refuses an import of a kind it does not know', () => {
    const bad = wasm(section(2, [[...name('env'), ...name('x'), 5, 0]]));
    assert.throws(() => shortenNames(bad, GLUE, new Set()), { message: 'wasm-names: an import of unknown kind 5' });
  });

  test('refuses a section that does not end where its size says', () => {
    const good = section(7, [exportOf('__wbindgen_start', FUNC, 0)]);
    const longer = [7, good[1] + 1, ...good.slice(2), 0];
    assert.throws(() => shortenNames(wasm(longer), GLUE, new Set()), { message: 'wasm-names: section 7 read to 30, but it ends at 31' });
  });
});

describe('renameInGlue', () => {
  const { renamed, imported } = shortenNames(page(LONG), GLUE, KEEP, UNUSED);

  test('renames whole identifiers only, the longer of two names sharing a start included', () => {
    assert.equal(renameInGlue(MINIFIED_GLUE, renamed, imported), RENAMED_GLUE);
  });

  test('the renamed glue starts the renamed wasm', async () => {
    const dir = fs.mkdtempSync(path.join(TMP, 'page-'));
    fs.writeFileSync(path.join(dir, 'race.js'), renameInGlue(MINIFIED_GLUE, renamed, imported));
    fs.writeFileSync(path.join(dir, '__wasm_split.js'), `export const ${LOAD_GPU_HALF} = () => {};\n`);
    const { initSync } = await import(pathToFileURL(path.join(dir, 'race.js')).href);
    const exports = initSync(shortenNames(page(LONG), GLUE, KEEP, UNUSED).wasm);
    // The start ran the externref table's set-up, through the glue's names for both.
    assert.equal(exports.$5.length, 128 + 4);
    assert.deepEqual(Object.keys(exports), ['memory', '$5', '$6', '__wasm_split_shared0', '$7', '$8', '__indirect_function_table', '$9']);
  });

  test('leaves alone names within longer ones and in other modules', () => {
    const names = new Map([['__wbindgen_start', '$0'], ['memory', '$1']]);
    assert.equal(
      renameInGlue('n.__wbindgen_start();n.__wbindgen_start_1();x__wbindgen_start;$memory;memory$;n.memory.buffer', names, new Set()),
      'n.$0();n.__wbindgen_start_1();x__wbindgen_start;$memory;memory$;n.$1.buffer',
    );
  });

  test('without names to give, returns the glue as it is', () => {
    assert.equal(renameInGlue(MINIFIED_GLUE, new Map(), new Set()), MINIFIED_GLUE);
  });

  test('refuses a glue that lacks an import the wasm calls', () => {
    const glue = MINIFIED_GLUE.replace('__wbg_log_0cc1b7768397bcfe:function(e){console.log(e)},', '');
    assert.throws(() => renameInGlue(glue, renamed, imported), { message: 'wasm-names: not in the glue: __wbg_log_0cc1b7768397bcfe' });
  });
});
