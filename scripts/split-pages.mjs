// Gives every lesson page of the built site a wasm of its own (run by scripts/build.sh after
// `trunk build --release`, which has written the index, the CSS and the index page's wasm).
//
// Each file in src/bin/ is one page, built by `cargo build --release --bins` with only its own
// code. Here each goes through wasm-bindgen and wasm-opt, its glue through terser, as Trunk does for the index, is named
// by a hash of its content, and is copied into dist/. The start-up script then becomes one that
// reads `?lesson=` and loads that page's wasm, or the index's for anything else; index.html
// stops preloading the index's wasm, which a lesson page would download for nothing.
//
//   node scripts/split-pages.mjs <target dir of the wasm build> <dist>
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { minify } from 'terser';

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
  if (!fs.existsSync(input)) fail(`${input} is missing: build with \`cargo build --release --bins\` first`);
  execFileSync('wasm-bindgen', ['--target', 'web', '--no-typescript', '--out-dir', work, '--out-name', id, input], { stdio: 'inherit' });
  const raw = path.join(work, `${id}_bg.wasm`);
  const optimised = path.join(work, `${id}.opt.wasm`);
  execFileSync('wasm-opt', ['-Oz', '--output', optimised, raw], { stdio: 'inherit' });
  const wasm = fs.readFileSync(optimised);
  // The glue imports nothing by name but its own wasm, which the start-up script hands it.
  // Minified as Trunk minifies the index's (80 KB → 38 KB raw, 12.8 → 10.4 KB gzip a page);
  // only local names are shortened, never the import names the wasm calls by.
  const { code } = await minify(fs.readFileSync(path.join(work, `${id}.js`), 'utf8'), { module: true, compress: true, mangle: true, format: { comments: false } });
  const glue = Buffer.from(code);
  const hash = hashOf(glue, wasm);
  const names = [`${id}-${hash}.js`, `${id}-${hash}_bg.wasm`];
  fs.writeFileSync(path.join(dist, names[0]), glue);
  fs.writeFileSync(path.join(dist, names[1]), wasm);
  pages[id] = names;
  console.log(`  ${id.padEnd(16)} ${(wasm.length / 1024).toFixed(0).padStart(5)} KB wasm`);
}

const boot = `// Loads the one page \`?lesson=\` names (the index for anything else): its wasm is fetched
// while its glue loads.
const pages = new Map(${JSON.stringify(Object.entries(pages))});
const index = ${JSON.stringify([indexGlue, indexWasm])};
// A Map, so \`?lesson=constructor\` names no page rather than a property of every object.
const [glue, wasm] = pages.get(new URLSearchParams(location.search).get('lesson')) ?? index;
const here = (file) => new URL(file, import.meta.url);
const module = fetch(here(wasm));
const { default: init } = await import(here(glue));
const started = await init({ module_or_path: module });
dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm: started } }));
`;
const bootName = `boot-${hashOf(boot)}.js`;
fs.writeFileSync(path.join(dist, bootName), boot);
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
