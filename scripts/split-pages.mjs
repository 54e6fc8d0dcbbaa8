// Gives every lesson page of the built site a wasm of its own (run by scripts/build.sh after
// `trunk build --release`, which has written the index, the CSS and the index page's wasm).
//
// Each file in src/bin/ is one page, built by `cargo build --release --bins --features split`
// with only its own code. Here each is split (its GPU half into chunks fetched as the reader
// nears the GPU panel), goes through wasm-bindgen and wasm-opt, its scripts through terser, as
// Trunk does for the index, and is copied into a folder of dist/ named by a hash of its content. The start-up script then becomes one that
// reads `?lesson=` and loads that page's wasm, or the index's for anything else; index.html
// stops preloading the index's wasm, which a lesson page would download for nothing.
//
//   node scripts/split-pages.mjs <target dir of the wasm build> <dist>
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { minify } from 'terser';
import { shortenNames, renameInGlue } from './wasm-names.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const [built, dist] = process.argv.slice(2).map((p) => path.resolve(p));
if (!built || !dist) {
  console.error('usage: node scripts/split-pages.mjs <wasm build dir> <dist>');
  process.exit(2);
}

const fail = (message) => {
  console.error(`split-pages.mjs: ${message}`);
  process.exit(1);
};
const hashOf = (...bodies) => {
  const h = crypto.createHash('sha256');
  for (const b of bodies) h.update(b);
  return h.digest('hex').slice(0, 16);
};

// The index page, as Trunk wrote it: its start-up script names its glue and its wasm.
const indexPath = path.join(dist, 'index.html');
let html = fs.readFileSync(indexPath, 'utf8');
const bootTag = html.match(/<script type="module" src="\.\/(boot-[0-9a-f]+\.js)"><\/script>/);
if (!bootTag) fail('index.html has no boot script (did scripts/boot-script.mjs run?)');
const trunkBoot = fs.readFileSync(path.join(dist, bootTag[1]), 'utf8');
const indexGlue = trunkBoot.match(/from\s*"\.\/([\w.-]+\.js)"/)?.[1];
const indexWasm = trunkBoot.match(/module_or_path:\s*[`'"]\.\/([\w.-]+\.wasm)[`'"]/)?.[1];
if (!indexGlue || !indexWasm) fail(`cannot read the index's files from ${bootTag[1]}:\n${trunkBoot}`);

const work = path.join(built, 'pages');
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

const pages = {};
const ids = fs.readdirSync(path.join(ROOT, 'src/bin')).filter((f) => f.endsWith('.rs')).map((f) => f.slice(0, -3)).sort();
for (const id of ids) {
  const input = path.join(built, `${id}.wasm`);
  if (!fs.existsSync(input)) fail(`${input} is missing: build with \`cargo build --release --bins --features split\` first`);
  // 1. The splitter cuts the page's GPU half (its `#[lazy]` wrapper, see src/ui/gpu_half.rs)
  //    and the device's opening into modules of their own, with a loader, __wasm_split.js,
  //    that fetches them; it reads the relocations the linker kept (build.rs).
  const split = path.join(work, id);
  fs.mkdirSync(split, { recursive: true });
  execFileSync('wasm-split-cli', [input, split, '--out-name', id], { stdio: 'inherit' });
  // 2. wasm-bindgen on the main module, keeping the exports the split modules import.
  const bound = path.join(split, 'bound');
  execFileSync('wasm-bindgen', ['--target', 'web', '--no-typescript', '--keep-lld-exports', '--out-dir', bound, '--out-name', id, path.join(split, `${id}.wasm`)], { stdio: 'inherit' });
  // 3. Every module optimised, every script minified, all in one folder named by a hash of
  //    its content: the loader and the glue find each other and the chunks by relative name.
  const files = new Map();
  const optimise = (from, name) => {
    const to = path.join(split, `${name}.opt`);
    // (Its warnings about a newer kind of name subsection, which it drops, are left out.)
    const run = spawnSync('wasm-opt', ['-Oz', '--output', to, from], { encoding: 'utf8' });
    const said = run.stderr.split('\n').filter((line) => line && !/unknown name subsection/.test(line));
    if (said.length) console.error(said.join('\n'));
    if (run.status !== 0) fail(`wasm-opt failed on ${from}`);
    files.set(name, fs.readFileSync(to));
  };
  // Minified as Trunk minifies the index's glue; only local names are shortened, never the
  // import names the wasm calls by.
  const minified = async (file) => Buffer.from((await minify(fs.readFileSync(file, 'utf8'), { module: true, compress: true, mangle: true, format: { comments: false } })).code);
  const loader = await minified(path.join(split, '__wasm_split.js'));
  files.set('__wasm_split.js', loader);
  // Short names between the main module and its glue (scripts/wasm-names.mjs); the loader's
  // own (the table, the memory, the shared exports) stay as they are.
  const keep = new Set(loader.toString().match(/__wasm_split_shared\d+|__indirect_function_table|memory/g));
  const main = path.join(split, 'main.wasm');
  const { wasm: named, renamed, imported } = shortenNames(fs.readFileSync(path.join(bound, `${id}_bg.wasm`)), `./${id}_bg.js`, keep, /intounderlying/);
  fs.writeFileSync(main, named);
  optimise(main, `${id}_bg.wasm`);
  files.set(`${id}.js`, Buffer.from(renameInGlue((await minified(path.join(bound, `${id}.js`))).toString(), renamed, imported)));
  for (const chunk of fs.readdirSync(split).filter((f) => f.endsWith('.wasm') && f !== `${id}.wasm` && f !== 'main.wasm')) {
    optimise(path.join(split, chunk), chunk);
  }
  const folder = `${id}-${hashOf(...[...files.keys()].sort().flatMap((name) => [name, files.get(name)]))}`;
  fs.mkdirSync(path.join(dist, folder), { recursive: true });
  for (const [name, body] of files) fs.writeFileSync(path.join(dist, folder, name), body);
  pages[id] = folder;
  const kb = (name) => (files.get(name).length / 1024).toFixed(0).padStart(5);
  const chunks = [...files.keys()].filter((n) => n.endsWith('.wasm') && n !== `${id}_bg.wasm`);
  console.log(`  ${id.padEnd(16)} ${kb(`${id}_bg.wasm`)} KB wasm, split off: ${chunks.map((n) => `${n.replace(/_\d+\.wasm$|\.wasm$/, '')} ${kb(n).trim()} KB`).join(', ')}`);
}

const boot = `// Loads the one page \`?lesson=\` names (the index for anything else): its wasm is fetched
// while its glue loads.
// Each lesson page's files are in a folder of their own: \`<folder>/<id>.js\` and \`<id>_bg.wasm\`.
const pages = new Map(${JSON.stringify(Object.entries(pages))});
const index = ${JSON.stringify([indexGlue, indexWasm])};
// A Map, so \`?lesson=constructor\` names no page rather than a property of every object.
const id = new URLSearchParams(location.search).get('lesson');
const folder = pages.get(id);
const [glue, wasm] = folder ? [\`\${folder}/\${id}.js\`, \`\${folder}/\${id}_bg.wasm\`] : index;
const here = (file) => new URL(file, import.meta.url);
const module = fetch(here(wasm));
const { default: init } = await import(here(glue));
const started = await init({ module_or_path: module });
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm: started } }));
`;
// Minified too: every page fetches it before anything else.
const bootCode = (await minify(boot, { module: true, compress: true, mangle: true, format: { comments: false } })).code;
const bootName = `boot-${hashOf(bootCode)}.js`;
fs.writeFileSync(path.join(dist, bootName), bootCode);
fs.rmSync(path.join(dist, bootTag[1]));

// Trunk preloads the index's files from the <head>: on a lesson page that is a download of a
// page nobody opened. The start-up script fetches what the page needs.
const preloads = html.match(/<link[^>]*rel=(modulepreload|preload)[^>]*>/g) ?? [];
for (const link of preloads) {
  if (!link.includes(indexGlue) && !link.includes(indexWasm)) fail(`unexpected preload in index.html: ${link}`);
  html = html.replace(link, '');
}
html = html.replace(bootTag[0], `<script type="module" src="./${bootName}"></script>`);
fs.writeFileSync(indexPath, html);
