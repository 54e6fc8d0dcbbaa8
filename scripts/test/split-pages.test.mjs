// scripts/split-pages.mjs's work on text and bytes (scripts/lib/pages.mjs), and its command
// line as far as it goes before the wasm tools run.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UnexpectedOutput, bootFileName } from '../lib/boot.mjs';
import {
  findBootTag, indexFiles, minifyModule, wasmOptComplaints, loaderNames, splitChunks, pageFolder, pageSummary, pagesBootSource, pagesIndex,
} from '../lib/pages.mjs';
import { optimiser } from '../lib/optimise.mjs';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const SCRIPT = path.join(import.meta.dirname, '..', 'split-pages.mjs');
const WASM_OPT = path.join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'wasm-opt');
const read = (...parts) => fs.readFileSync(path.join(FIXTURES, ...parts), 'utf8');

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'split-pages-'));
after(() => fs.rmSync(TMP, { recursive: true, force: true }));

/** `error` is an UnexpectedOutput saying `message`. */
const unexpected = (message) => (error) => {
  assert.ok(error instanceof UnexpectedOutput);
  assert.equal(error.message, message);
  return true;
};

// dist/ as Trunk and scripts/boot-script.mjs leave it: trunk-hooked/index.html loads this.
const TRUNK_BOOT_NAME = 'boot-28c829af768873bc.js';
const TRUNK_BOOT =
  'import o,*as t from"./syncscope-ebb248dfe21a4994.js";const i=await o({module_or_path:"./syncscope-67fa47acd32668ac_bg.wasm"});' +
  'window.wasmBindings=t,dispatchEvent(new CustomEvent("TrunkApplicationStarted",{detail:{wasm:i}}))\n';
const INDEX = { glue: 'syncscope-ebb248dfe21a4994.js', wasm: 'syncscope-67fa47acd32668ac_bg.wasm' };

// A lesson page's glue as wasm-bindgen 0.2.130 writes it (--target web), cut down to a few imports.
const GLUE = `import * as import1 from "./__wasm_split.js"

let cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
    if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {
        cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);
    }
    return cachedUint8ArrayMemory0;
}

let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
function getStringFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return cachedTextDecoder.decode(getUint8ArrayMemory0().subarray(ptr, ptr + len));
}

function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
        __wbg_createElement_8a7c5bb0e4c1fa4e: function(arg0, arg1, arg2) {
            const ret = arg0.createElement(getStringFromWasm0(arg1, arg2));
            return ret;
        },
        __wbg_log_0cc1b7768397bcfe: function(arg0) {
            console.log(arg0);
        },
        __wbg_queueMicrotask_5d15a957e6aa920e: function(arg0) {
            queueMicrotask(() => wasm_bindgen_cf8f2c93e6bb35f5___convert__closures_____invoke_______true_(arg0, 0));
        },
        __wbg_setTimeout_4ec014681668a581: function(arg0, arg1) {
            const ret = setTimeout(() => wasm_bindgen_cf8f2c93e6bb35f5___convert__closures_____invoke_______true__1_(arg0, 0), arg1);
            return ret;
        },
        __wbindgen_init_externref_table: function() {
            const table = wasm.__wbindgen_externrefs;
            const offset = table.grow(4);
            table.set(0, undefined);
            table.set(offset + 0, undefined);
        },
    };
    return {
        __proto__: null,
        "./race_bg.js": import0,
        "./__wasm_split.js": import1,
    };
}

function wasm_bindgen_cf8f2c93e6bb35f5___convert__closures_____invoke_______true_(arg0, arg1) {
    wasm.wasm_bindgen_cf8f2c93e6bb35f5___convert__closures_____invoke_______true_(arg0, arg1);
}

function wasm_bindgen_cf8f2c93e6bb35f5___convert__closures_____invoke_______true__1_(arg0, arg1) {
    wasm.wasm_bindgen_cf8f2c93e6bb35f5___convert__closures_____invoke_______true__1_(arg0, arg1);
}

let wasm;
function __wbg_finalize_init(instance, module) {
    wasm = instance.exports;
    cachedUint8ArrayMemory0 = null;
    wasm.__wbindgen_start();
    return wasm;
}

function initSync(module) {
    if (wasm !== undefined) return wasm;
    const imports = __wbg_get_imports();
    if (!(module instanceof WebAssembly.Module)) {
        module = new WebAssembly.Module(module);
    }
    const instance = new WebAssembly.Instance(module, imports);
    return __wbg_finalize_init(instance, module);
}

async function __wbg_init(module_or_path) {
    if (wasm !== undefined) return wasm;
    const imports = __wbg_get_imports();
    const { instance, module } = await WebAssembly.instantiateStreaming(await module_or_path, imports);
    return __wbg_finalize_init(instance, module);
}

export { initSync, __wbg_init as default };
`;

// The splitter's loader for a page with one module split off and one chunk it shares.
const LOADER = `import { initSync } from "./race.js";

let sharedImports = undefined;
function getSharedImports() {
    if (sharedImports === undefined) {
        sharedImports = { __wasm_split: {  } };
        const { __indirect_function_table, __wasm_split_shared0, __wasm_split_shared1, memory,  } = initSync(undefined, undefined);
        Object.assign(sharedImports.__wasm_split, { __indirect_function_table, __wasm_split_shared0, __wasm_split_shared1, memory,  });
    }
    return sharedImports;
}
function wrapAsyncCb(callee) {
    return async (callbackIndex, callbackData) => {
        let success;
        try {
            await callee();
            success = true;
        } catch (e) {
            console.error(e);
            success = false;
        } finally {
            const sharedImports = getSharedImports();
            sharedImports.__wasm_split.__indirect_function_table.get(callbackIndex)(callbackData, success);
        }
    }
}
function makeLoad(fetcher, deps) {
    const loader = async () => {
        const parallelStuff = deps.map(d => d());
        const instantiate = fetcher();
        await Promise.all(parallelStuff);
        const imports = getSharedImports();
        return instantiate(imports);
    };
    let loadingModule = undefined;
    return () => {
        if (loadingModule === undefined) {
            const thisLoad = loader();
            thisLoad.catch(() => {
                if (loadingModule === thisLoad) loadingModule = undefined;
            });
            loadingModule = thisLoad;
        }
        return loadingModule;
    }
}
/* gpu_half_2606874835880254052, open_device_10159927828363723578 */
const __chunk_4 = makeLoad(() => {
    const src = fetch(new URL("./chunk_4.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, []);
export const __wasm_split_load_gpu_half_2606874835880254052 = wrapAsyncCb(makeLoad(() => {
    const src = fetch(new URL("./split_gpu_half_2606874835880254052.wasm", import.meta.url));
    src.catch(() => {});
    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));
}
, [__chunk_4]));
`;

// Every lesson page of a build, and the start-up script it wrote for them.
const SITE_PAGES = {
  append: 'append-fbb7d093a912d797',
  'atomic-counter': 'atomic-counter-606e014176bc33bb',
  'atomic-ops': 'atomic-ops-ae842bcc9edddd5e',
  barrier: 'barrier-e2ebbfd97eb59323',
  'cas-max': 'cas-max-a216381ba698947f',
  'cuda-map': 'cuda-map-a417b0cd66b92408',
  histogram: 'histogram-0915bf85f6700c4f',
  litmus: 'litmus-baa9e5fd3f763721',
  'message-passing': 'message-passing-07b9f0bbbac6a89f',
  race: 'race-5859af7215638ee1',
  reduction: 'reduction-2f0fe6ca3a11fd2e',
  spinlock: 'spinlock-0eb5715acb85ff45',
  tiled: 'tiled-4b158162e24004b1',
};
const SITE_BOOT =
  'const a=new Map([["append","append-fbb7d093a912d797"],["atomic-counter","atomic-counter-606e014176bc33bb"],' +
  '["atomic-ops","atomic-ops-ae842bcc9edddd5e"],["barrier","barrier-e2ebbfd97eb59323"],["cas-max","cas-max-a216381ba698947f"],' +
  '["cuda-map","cuda-map-a417b0cd66b92408"],["histogram","histogram-0915bf85f6700c4f"],["litmus","litmus-baa9e5fd3f763721"],' +
  '["message-passing","message-passing-07b9f0bbbac6a89f"],["race","race-5859af7215638ee1"],["reduction","reduction-2f0fe6ca3a11fd2e"],' +
  '["spinlock","spinlock-0eb5715acb85ff45"],["tiled","tiled-4b158162e24004b1"]]),' +
  'e=new URLSearchParams(location.search).get("lesson"),c=a.get(e),' +
  '[s,t]=c?[`${c}/${e}.js`,`${c}/${e}_bg.wasm`]:["syncscope-ebb248dfe21a4994.js","syncscope-67fa47acd32668ac_bg.wasm"],' +
  'b=a=>new URL(a,import.meta.url),i=fetch(b(t)),{default:o}=await(import(b(s))),d=await o({module_or_path:i});' +
  'dispatchEvent(new CustomEvent("TrunkApplicationStarted",{detail:{wasm:d}}));';

describe("the index's files", () => {
  test("finds the start-up script boot-script.mjs moved out", () => {
    assert.deepEqual(findBootTag(read('trunk-hooked', 'index.html')), {
      tag: `<script type="module" src="./${TRUNK_BOOT_NAME}"></script>`,
      file: TRUNK_BOOT_NAME,
    });
  });

  test('refuses an index.html the hook did not run on', () => {
    assert.throws(() => findBootTag(read('trunk-release', 'index.html')), unexpected('index.html has no boot script (did scripts/boot-script.mjs run?)'));
  });

  test("reads the index's glue and wasm from Trunk's minified start-up script", () => {
    assert.deepEqual(indexFiles(TRUNK_BOOT, TRUNK_BOOT_NAME), INDEX);
  });

  test('reads the wasm in any quotes a minifier may choose', () => {
    for (const quoted of ['"./x_bg.wasm"', "'./x_bg.wasm'", '`./x_bg.wasm`']) {
      assert.deepEqual(indexFiles(`import o from "./x.js";await o({ module_or_path: ${quoted} })`, TRUNK_BOOT_NAME), { glue: 'x.js', wasm: 'x_bg.wasm' });
    }
  });

  const unread = {
    'of a debug build (quoted as written)': "import init, * as bindings from './syncscope-1c9a4e1e0d1a2b3c.js';\nconst wasm = await init({ module_or_path: './syncscope-1c9a4e1e0d1a2b3c_bg.wasm' });\n",
    'that hands init the bytes (compression on)': 'import o from"./syncscope-ebb248dfe21a4994.js";const r=await fetch("./syncscope-67fa47acd32668ac_bg.wasm.gz");const i=await o({module_or_path:await r.arrayBuffer()});\n',
  };
  for (const [what, boot] of Object.entries(unread)) {
    test(`refuses a start-up script ${what}, showing it`, () => {
      assert.throws(() => indexFiles(boot, 'boot-892451ea08ca72ba.js'), unexpected(`cannot read the index's files from boot-892451ea08ca72ba.js:\n${boot}`));
    });
  }
});

describe("a lesson page's files", () => {
  test('minifies the glue, its import names and the exports it calls left whole', async () => {
    assert.equal(
      await minifyModule(GLUE),
      fs.readFileSync(path.join(import.meta.dirname, 'fixtures/race-glue.min.js.txt'), 'utf8'),
    );
  });

  test('keeps the names the minified loader reads from the main module', async () => {
    assert.deepEqual(
      [...loaderNames(await minifyModule(LOADER))],
      ['__indirect_function_table', '__wasm_split_shared0', '__wasm_split_shared1', 'memory'],
    );
  });

  test('optimises the modules split off, not the whole page nor its main module', () => {
    const work = [
      '__wasm_split.js', 'bound', 'chunk_4.wasm', 'main.wasm', 'race.wasm', 'race_bg.wasm.opt',
      'split_gpu_half_2606874835880254052.wasm', 'split_open_device_10159927828363723578.wasm',
    ];
    assert.deepEqual(splitChunks(work, 'race'), ['chunk_4.wasm', 'split_gpu_half_2606874835880254052.wasm', 'split_open_device_10159927828363723578.wasm']);
  });

  test("shows wasm-opt's complaints but not its warnings about name subsections", () => {
    const stderr =
      'warning: unknown name subsection with id 9 at 1362911\n' +
      '[wasm-validator error in function 12] unexpected false: all used features should be allowed, on\n' +
      'warning: unknown name subsection with id 10 at 1363003\n' +
      'Fatal: error validating input\n';
    assert.deepEqual(wasmOptComplaints(stderr), [
      '[wasm-validator error in function 12] unexpected false: all used features should be allowed, on',
      'Fatal: error validating input',
    ]);
    assert.deepEqual(wasmOptComplaints(''), []);
  });

  describe('the optimiser (wasm-opt -O1 in worker threads)', () => {
    // A module with one function and a name subsection (20) of a kind Binaryen does not know.
    const names = [4, ...Buffer.from('name'), 20, 3, 1, 0x61, 0x62];
    const module = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 10, 4, 1, 2, 0, 0x0b, 0, names.length, ...names]);
    const haveBinaryen = fs.existsSync(WASM_OPT) || 'no binaryen in node_modules';

    test('gives the bytes the wasm-opt command gives, and leaves out its warning about name subsections', { skip: haveBinaryen !== true && haveBinaryen }, async () => {
      const from = path.join(TMP, 'names.wasm');
      fs.writeFileSync(from, module);
      const run = spawnSync(WASM_OPT, ['-O1', '--output', path.join(TMP, 'names.opt'), from], { encoding: 'utf8' });
      assert.equal(run.status, 0);
      assert.match(run.stderr, /unknown name subsection/);
      const wasmOpt = optimiser(2);
      try {
        const results = await Promise.all([module, module, module].map((m) => wasmOpt.optimise(m)));
        for (const { bytes, said } of results) {
          assert.deepEqual(bytes, fs.readFileSync(path.join(TMP, 'names.opt')));
          assert.deepEqual(said, []);
        }
      } finally {
        await wasmOpt.close();
      }
    });

    test('refuses a module that is not valid, saying so', { skip: haveBinaryen !== true && haveBinaryen }, async () => {
      // The function's body returns an i32 its type does not have.
      const invalid = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 10, 6, 1, 4, 0, 0x41, 1, 0x0b]);
      const wasmOpt = optimiser(1);
      try {
        await assert.rejects(wasmOpt.optimise(invalid), /wasm-opt: the module is not valid/);
        // and the thread goes on with the next module
        const { bytes } = await wasmOpt.optimise(module);
        assert.deepEqual([...bytes.subarray(0, 4)], [0, 0x61, 0x73, 0x6d]);
      } finally {
        await wasmOpt.close();
      }
    });
  });

  const files = () => new Map([
    ['__wasm_split.js', Buffer.from('import{initSync as t}from"./race.js";')],
    ['race_bg.wasm', Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])],
    ['race.js', Buffer.from('export{s as initSync,u as default};')],
    ['chunk_4.wasm', Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0, 1, 0])],
  ]);

  test('names the folder by a hash of every file, names and contents, in the order of their names', () => {
    const h = crypto.createHash('sha256');
    for (const name of ['__wasm_split.js', 'chunk_4.wasm', 'race.js', 'race_bg.wasm']) h.update(name).update(files().get(name));
    assert.equal(h.digest('hex').slice(0, 16), '91527af25b47b453');
    assert.equal(pageFolder('race', files()), 'race-91527af25b47b453');
    assert.equal(pageFolder('race', new Map([...files()].reverse())), 'race-91527af25b47b453');
  });

  test('names another folder when a file changes or is renamed', () => {
    const changed = files().set('race.js', Buffer.from('export{s as initSync,u as default}; '));
    const renamed = new Map([...files()].map(([name, body]) => [name.replace('chunk_4', 'chunk_5'), body]));
    assert.notEqual(pageFolder('race', changed), 'race-91527af25b47b453');
    assert.notEqual(pageFolder('race', renamed), 'race-91527af25b47b453');
  });

  test("logs the page's wasm and what was split off it, in KB", () => {
    const sizes = new Map([
      ['__wasm_split.js', 1604], ['race_bg.wasm', 487828], ['race.js', 25750], ['chunk_4.wasm', 1247], ['chunk_5.wasm', 4251],
      ['split_gpu_half_2606874835880254052.wasm', 192845], ['split_open_device_10159927828363723578.wasm', 16013],
      ['split_text_lanes_3361363601556178078.wasm', 35356],
    ]);
    const files = new Map([...sizes].map(([name, size]) => [name, Buffer.alloc(size)]));
    assert.equal(
      pageSummary('race', files),
      '  race               476 KB wasm, split off: chunk 1 KB, chunk 4 KB, split_gpu_half 188 KB, split_open_device 16 KB, split_text_lanes 35 KB',
    );
  });
});

describe("the site's start-up script", () => {
  test('is the one the build wrote for its pages', async () => {
    const code = await minifyModule(pagesBootSource(SITE_PAGES, INDEX));
    assert.equal(code, SITE_BOOT);
    assert.equal(bootFileName(code), 'boot-f65bd1b91d13f75b.js');
  });

  test('lists the pages and the index before minifying', () => {
    const lines = pagesBootSource({ race: 'race-5859af7215638ee1', tiled: 'tiled-4b158162e24004b1' }, INDEX).split('\n');
    assert.equal(lines[3], 'const pages = new Map([["race","race-5859af7215638ee1"],["tiled","tiled-4b158162e24004b1"]]);');
    assert.equal(lines[4], 'const index = ["syncscope-ebb248dfe21a4994.js","syncscope-67fa47acd32668ac_bg.wasm"];');
  });

  // Runs the minified script as a page would, with a stand-in glue in every folder it may load.
  const site = fs.mkdtempSync(path.join(TMP, 'site-'));
  const pages = { race: 'race-5859af7215638ee1' };
  const stub = (file) => {
    fs.mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
    fs.writeFileSync(path.join(site, file), 'export default async (options) => ({ glue: import.meta.url, options });\n');
  };
  stub('race-5859af7215638ee1/race.js');
  stub(INDEX.glue);
  fs.writeFileSync(path.join(site, 'package.json'), '{ "type": "module" }\n');
  let runs = 0;
  async function open(search) {
    const boot = path.join(site, 'boot.js');
    fs.writeFileSync(boot, await minifyModule(pagesBootSource(pages, INDEX)));
    const saved = { fetch: globalThis.fetch };
    const events = [];
    Object.assign(globalThis, { location: { search }, fetch: (url) => ({ fetched: url.href }), dispatchEvent: (event) => events.push(event) });
    try {
      await import(`${pathToFileURL(boot).href}?run=${++runs}`);
    } finally {
      delete globalThis.location;
      delete globalThis.dispatchEvent;
      globalThis.fetch = saved.fetch;
    }
    assert.equal(events.length, 1);
    assert.equal(events[0].type, 'TrunkApplicationStarted');
    const { glue, options } = events[0].detail.wasm;
    const inSite = (url) => path.relative(site, fileURLToPath(url));
    return { glue: inSite(glue), wasm: inSite(options.module_or_path.fetched) };
  }

  test('loads the page `?lesson=` names from its folder', async () => {
    assert.deepEqual(await open('?lesson=race'), { glue: 'race-5859af7215638ee1/race.js', wasm: 'race-5859af7215638ee1/race_bg.wasm' });
  });

  test('loads the index for no lesson, an unknown one, or a property name', async () => {
    for (const search of ['', '?lesson=tiled', '?lesson=constructor', '?lesson=__proto__']) {
      assert.deepEqual(await open(search), { glue: INDEX.glue, wasm: INDEX.wasm }, search);
    }
  });
});

describe('index.html for lesson pages', () => {
  const html = read('trunk-hooked', 'index.html');
  const tag = `<script type="module" src="./${TRUNK_BOOT_NAME}"></script>`;

  test("loads the new start-up script and no longer preloads the index's files", () => {
    assert.equal(
      pagesIndex(html, tag, INDEX, 'boot-f65bd1b91d13f75b.js'),
      '<!doctype html><html lang=en><meta charset=utf-8><meta content="width=device-width,initial-scale=1" name=viewport><title>syncscope</title>' +
        '<script type="module" src="./boot-f65bd1b91d13f75b.js"></script>' +
        '<link href=./main-7d9e05c0ba35cf41.css integrity=sha384-IS/OfDKFhGVMjoNvLRvwAKRFKP7a1MO2x8JJ06FvdhyqOh7bV8amlMZr0eu4LDfW rel=stylesheet>' +
        '</head><body><noscript>syncscope needs JavaScript and WebAssembly to run its lessons.</noscript></body></html>',
    );
  });

  test('refuses to drop a preload of anything else', () => {
    const font = '<link as=font crossorigin=anonymous href=./mono-3c1d.woff2 rel=preload type=font/woff2>';
    assert.throws(
      () => pagesIndex(html.replace('</head>', `${font}</head>`), tag, INDEX, 'boot-f65bd1b91d13f75b.js'),
      unexpected(`unexpected preload in index.html: ${font}`),
    );
  });
});

describe('node scripts/split-pages.mjs', () => {
  /** A dist/ with `files` and an empty wasm build folder; the script run on them. */
  function run(files) {
    const dir = fs.mkdtempSync(path.join(TMP, 'cli-'));
    const [built, dist] = [path.join(dir, 'built'), path.join(dir, 'dist')];
    fs.mkdirSync(built);
    fs.mkdirSync(dist);
    for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dist, name), body);
    const result = spawnSync(process.execPath, [SCRIPT, built, dist], { encoding: 'utf8' });
    return { ...result, built: fs.readdirSync(built), dist: Object.fromEntries(fs.readdirSync(dist).map((f) => [f, fs.readFileSync(path.join(dist, f), 'utf8')])) };
  }

  test('needs both folders, or with --pages-only the build folder alone', () => {
    for (const args of [[], [TMP], ['--pages-only'], ['--pages-only', TMP, TMP]]) {
      const result = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
      assert.equal(result.status, 2, args.join(' '));
      assert.equal(
        result.stderr,
        'usage: node scripts/split-pages.mjs <wasm build dir> <dist>\n   or: node scripts/split-pages.mjs --pages-only <wasm build dir>\n',
      );
    }
  });

  test('--pages-only reads no index.html and names the first page it finds no wasm for', () => {
    const dir = fs.mkdtempSync(path.join(TMP, 'pages-only-'));
    const result = spawnSync(process.execPath, [SCRIPT, '--pages-only', dir], { encoding: 'utf8' });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^split-pages\.mjs: .*append\.wasm is missing: build with scripts\/build\.sh/);
    assert.deepEqual(fs.readdirSync(dir), [], 'nothing written');
  });

  test('stops, touching nothing, on an index.html the hook did not run on', () => {
    const files = { 'index.html': read('trunk-release', 'index.html') };
    const result = run(files);
    assert.equal(result.stderr, 'split-pages.mjs: index.html has no boot script (did scripts/boot-script.mjs run?)\n');
    assert.equal(result.status, 1);
    assert.deepEqual(result.built, []);
    assert.deepEqual(result.dist, files);
  });

  test("stops, touching nothing, on a start-up script that does not name the index's files", () => {
    const boot = TRUNK_BOOT.replace('module_or_path:', 'module:');
    const files = { 'index.html': read('trunk-hooked', 'index.html'), [TRUNK_BOOT_NAME]: boot };
    const result = run(files);
    assert.equal(result.stderr, `split-pages.mjs: cannot read the index's files from ${TRUNK_BOOT_NAME}:\n${boot}\n`);
    assert.equal(result.status, 1);
    assert.deepEqual(result.built, []);
    assert.deepEqual(result.dist, files);
  });
});
