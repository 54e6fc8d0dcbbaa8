// Gives every lesson page of the built site a wasm of its own (run by scripts/build.sh after
// `trunk build --release`, which has written the index, the CSS and the index page's wasm).
//
// Each file in src/bin/ is one page, built by `cargo build --release --bin <page> --features split`
// with only its own code. Here each is split (its GPU half into chunks fetched as the reader
// nears the GPU panel), goes through wasm-bindgen and wasm-opt, its scripts through terser, as
// Trunk does for the index, and is copied into a folder of dist/ named by a hash of its content. The start-up script then becomes one that
// reads `?lesson=` and loads that page's wasm, or the index's for anything else; index.html
// stops preloading the index's wasm, which a lesson page would download for nothing.
//
//   node scripts/split-pages.mjs <target dir of the wasm build> <dist>
//
// With --pages-only (and no <dist>) it only does each page's work, into its cache (see
// `cached`), and writes nothing into dist/: scripts/build.sh runs that beside Trunk's build of
// the index, which keeps one core busy for a minute or more, then this script again to write
// the pages, which finds every one of them done.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFile, spawnSync } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { shortenNames, renameInGlue } from './wasm-names.mjs';
import { UnexpectedOutput, bootFileName } from './lib/boot.mjs';
import { optimiser } from './lib/optimise.mjs';
import {
  findBootTag, indexFiles, minifyModule, loaderNames, splitChunks, pageFolder, pageSummary, pagesBootSource, pagesIndex,
} from './lib/pages.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const pagesOnly = args[0] === '--pages-only';
if (pagesOnly) args.shift();
const [built, dist] = args.map((p) => path.resolve(p));
if (!built || !dist === !pagesOnly) {
  console.error('usage: node scripts/split-pages.mjs <wasm build dir> <dist>\n   or: node scripts/split-pages.mjs --pages-only <wasm build dir>');
  process.exit(2);
}

const fail = (message) => {
  console.error(`split-pages.mjs: ${message}`);
  process.exit(1);
};
// Output not in the shape expected ends the build, saying what was found.
const must = (read) => {
  try {
    return read();
  } catch (error) {
    if (error instanceof UnexpectedOutput) fail(error.message);
    throw error;
  }
};

// The index page, as Trunk wrote it: its start-up script names its glue and its wasm. Read
// before any page's work, so an index not in the shape expected stops the build at once.
const indexPath = pagesOnly ? null : path.join(dist, 'index.html');
const html = pagesOnly ? null : fs.readFileSync(indexPath, 'utf8');
const bootTag = pagesOnly ? null : must(() => findBootTag(html));
const index = pagesOnly ? null : must(() => indexFiles(fs.readFileSync(path.join(dist, bootTag.file), 'utf8'), bootTag.file));

const ids = fs.readdirSync(path.join(ROOT, 'src/bin')).filter((f) => f.endsWith('.rs')).map((f) => f.slice(0, -3)).sort();
for (const id of ids) {
  const input = path.join(built, `${id}.wasm`);
  if (!fs.existsSync(input)) fail(`${input} is missing: build with scripts/build.sh, which builds every page with \`--features split\``);
}

const work = path.join(built, 'pages');
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

// The work on one page's wasm, about 10 seconds a page: the same input (and the same tools and
// scripts) gives the same files, so an unchanged page is taken from the last build instead.
const cacheDir = path.join(built, 'pages-cache');
const toolsKey = (() => {
  const h = crypto.createHash('sha256');
  for (const tool of ['wasm-split-cli', 'wasm-bindgen']) {
    h.update(spawnSync(tool, ['--version'], { encoding: 'utf8' }).stdout ?? tool);
  }
  for (const file of ['scripts/split-pages.mjs', 'scripts/wasm-names.mjs', 'scripts/lib/pages.mjs', 'scripts/lib/boot.mjs', 'scripts/lib/optimise.mjs',
    'node_modules/terser/package.json', 'node_modules/binaryen/package.json']) {
    h.update(fs.readFileSync(path.join(ROOT, file)));
  }
  return h.digest('hex');
})();
const keyOf = (input) => crypto.createHash('sha256').update(toolsKey).update(fs.readFileSync(input)).digest('hex');

/** The files made last time from this very input, or nothing. */
function cached(id, input) {
  const dir = path.join(cacheDir, id);
  const keyFile = path.join(dir, 'key');
  if (!fs.existsSync(keyFile) || fs.readFileSync(keyFile, 'utf8') !== keyOf(input)) return null;
  const names = JSON.parse(fs.readFileSync(path.join(dir, 'files.json'), 'utf8'));
  return new Map(names.map((name) => [name, fs.readFileSync(path.join(dir, 'files', name))]));
}

/** Keeps `files` as what `input` gives, and hands them back. */
function remember(id, input, files) {
  const dir = path.join(cacheDir, id);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'files'), { recursive: true });
  for (const [name, body] of files) fs.writeFileSync(path.join(dir, 'files', name), body);
  fs.writeFileSync(path.join(dir, 'files.json'), JSON.stringify([...files.keys()]));
  fs.writeFileSync(path.join(dir, 'key'), keyOf(input));
  return files;
}

const run = promisify(execFile);
/** Runs a tool to its end; its output is shown only when it fails. */
async function runTool(command, args) {
  try {
    return await run(command, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (error) {
    if (error.stdout) process.stderr.write(error.stdout);
    if (error.stderr) process.stderr.write(error.stderr);
    fail(`${command} failed (${error.code ?? error.signal})`);
  }
}

/** Splits, binds, optimises and minifies one page's wasm: its files by name. */
async function processPage(id, input) {
  // 1. The splitter cuts the page's GPU half (its `#[lazy]` wrapper, see src/ui/gpu_half.rs)
  //    and the device's opening into modules of their own, with a loader, __wasm_split.js,
  //    that fetches them; it reads the relocations the linker kept (build.rs).
  const split = path.join(work, id);
  fs.mkdirSync(split, { recursive: true });
  await runTool('wasm-split-cli', [input, split, '--out-name', id]);
  // 2. wasm-bindgen on the main module, keeping the exports the split modules import.
  const bound = path.join(split, 'bound');
  await runTool('wasm-bindgen', ['--target', 'web', '--no-typescript', '--keep-lld-exports', '--out-dir', bound, '--out-name', id, path.join(split, `${id}.wasm`)]);
  // 3. Every module optimised, every script minified, all in one folder named by a hash of
  //    its content: the loader and the glue find each other and the chunks by relative name.
  const files = new Map();
  const optimise = async (from, name) => {
    // -O1, not -Oz: rustc has already optimised for size, and on the race page -O1 gave a main
    // module 1.7 KB lighter in gzip (177.5 against 179.2 KB; raw 8 % heavier) in 4.3 s against
    // 7.1; the lab's page took 13 s against 25 s, its GPU half 3.3 KB heavier in gzip.
    const { bytes, said } = await wasmOpt.optimise(fs.readFileSync(from)).catch((error) => fail(`${id}: ${error.message}`));
    if (said.length) console.error(said.join('\n'));
    files.set(name, bytes);
  };
  const minified = async (file) => Buffer.from(await minifyModule(fs.readFileSync(file, 'utf8')));
  const loader = await minified(path.join(split, '__wasm_split.js'));
  files.set('__wasm_split.js', loader);
  // Short names between the main module and its glue (scripts/wasm-names.mjs); the loader's
  // own (the table, the memory, the shared exports) stay as they are.
  const keep = loaderNames(loader.toString());
  const main = path.join(split, 'main.wasm');
  const { wasm: named, renamed, imported } = shortenNames(fs.readFileSync(path.join(bound, `${id}_bg.wasm`)), `./${id}_bg.js`, keep, /intounderlying/);
  fs.writeFileSync(main, named);
  await optimise(main, `${id}_bg.wasm`);
  files.set(`${id}.js`, Buffer.from(renameInGlue((await minified(path.join(bound, `${id}.js`))).toString(), renamed, imported)));
  for (const chunk of splitChunks(fs.readdirSync(split), id)) {
    await optimise(path.join(split, chunk), chunk);
  }
  return files;
}

// As many pages at once as the machine has cores, and as many threads optimising modules
// (scripts/lib/optimise.mjs): every tool here uses one core.
const pages = {};
const made = new Map();
const queue = [...ids];
const worker = async () => {
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const input = path.join(built, `${id}.wasm`);
    made.set(id, cached(id, input) ?? remember(id, input, await processPage(id, input)));
  }
};
const parallel = Math.max(1, Math.min(os.availableParallelism(), ids.length));
const wasmOpt = optimiser(parallel);
await Promise.all(Array.from({ length: parallel }, worker));
await wasmOpt.close();
if (pagesOnly) process.exit(0);
for (const id of ids) {
  const files = made.get(id);
  const folder = pageFolder(id, files);
  fs.mkdirSync(path.join(dist, folder), { recursive: true });
  for (const [name, body] of files) fs.writeFileSync(path.join(dist, folder, name), body);
  pages[id] = folder;
  console.log(pageSummary(id, files));
}

// Minified too: every page fetches it before anything else.
const bootCode = await minifyModule(pagesBootSource(pages, index));
const bootName = bootFileName(bootCode);
fs.writeFileSync(path.join(dist, bootName), bootCode);
fs.rmSync(path.join(dist, bootTag.file));

// Trunk preloads the index's files from the <head>: on a lesson page that is a download of a
// page nobody opened. The start-up script fetches what the page needs.
fs.writeFileSync(indexPath, must(() => pagesIndex(html, bootTag.tag, index, bootName)));
