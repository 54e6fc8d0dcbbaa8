// What scripts/split-pages.mjs makes of the build's text and bytes: the index's files read from
// its start-up script, the page folders' names, the start-up script that picks a page, and
// index.html without the index's preloads.
import { minify } from 'terser';
import { UnexpectedOutput, contentHash } from './boot.mjs';

/** index.html's tag for the start-up script scripts/boot-script.mjs moved out: `{ tag, file }`. */
export function findBootTag(html) {
  const match = html.match(/<script type="module" src="\.\/(boot-[0-9a-f]+\.js)"><\/script>/);
  if (!match) throw new UnexpectedOutput('index.html has no boot script (did scripts/boot-script.mjs run?)');
  return { tag: match[0], file: match[1] };
}

/** The index's glue and wasm, as Trunk's start-up script `boot` (the file `file`) names them. */
export function indexFiles(boot, file) {
  const glue = boot.match(/from\s*"\.\/([\w.-]+\.js)"/)?.[1];
  const wasm = boot.match(/module_or_path:\s*[`'"]\.\/([\w.-]+\.wasm)[`'"]/)?.[1];
  if (!glue || !wasm) throw new UnexpectedOutput(`cannot read the index's files from ${file}:\n${boot}`);
  return { glue, wasm };
}

/** Minified as Trunk minifies the index's glue; only local names are shortened, never the
 * import names the wasm calls by. */
export async function minifyModule(code) {
  return (await minify(code, { module: true, compress: true, mangle: true, format: { comments: false } })).code;
}

/** The lines of wasm-opt's `stderr` worth showing: its warnings about a newer kind of name
 * subsection, which it drops, are left out. */
export const wasmOptComplaints = (stderr) => stderr.split('\n').filter((line) => line && !/unknown name subsection/.test(line));

/** The main module's exports the split modules' loader reads by name (the table, the memory,
 * the shared exports): they must keep their names. */
export const loaderNames = (loader) => new Set(loader.match(/__wasm_split_shared\d+|__indirect_function_table|memory/g));

/** The modules split off page `id`, among the wasm files of its work folder: all but the
 * splitter's main module and its renamed copy. */
export const splitChunks = (names, id) => names.filter((f) => f.endsWith('.wasm') && f !== `${id}.wasm` && f !== 'main.wasm');

/** Page `id`'s folder, named by a hash of all its `files` (name → content), names included: a
 * long-lived cache never serves a stale file, and files that find each other by relative name
 * (the loader, the glue, the chunks) always move to a new folder together. */
export const pageFolder = (id, files) => `${id}-${contentHash(...[...files.keys()].sort().flatMap((name) => [name, files.get(name)]))}`;

/** The build log's line for page `id`: its wasm's size and each split-off module's. */
export function pageSummary(id, files) {
  const kb = (name) => (files.get(name).length / 1024).toFixed(0).padStart(5);
  const chunks = [...files.keys()].filter((n) => n.endsWith('.wasm') && n !== `${id}_bg.wasm`);
  return `  ${id.padEnd(16)} ${kb(`${id}_bg.wasm`)} KB wasm, split off: ${chunks.map((n) => `${n.replace(/_\d+\.wasm$|\.wasm$/, '')} ${kb(n).trim()} KB`).join(', ')}`;
}

/** The site's start-up script, before minifying: `pages` maps each lesson page's id to its
 * folder, `index` names the index page's `{ glue, wasm }`. */
export function pagesBootSource(pages, index) {
  return `// Loads the one page \`?lesson=\` names (the index for anything else): its wasm is fetched
// while its glue loads.
// Each lesson page's files are in a folder of their own: \`<folder>/<id>.js\` and \`<id>_bg.wasm\`.
const pages = new Map(${JSON.stringify(Object.entries(pages))});
const index = ${JSON.stringify([index.glue, index.wasm])};
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
}

/** `html` loading the start-up script `bootName` in place of the tag `bootTag`, without the
 * preloads of the index's `{ glue, wasm }` (`index`); a preload of anything else is unexpected. */
export function pagesIndex(html, bootTag, index, bootName) {
  const preloads = html.match(/<link[^>]*rel=(modulepreload|preload)[^>]*>/g) ?? [];
  for (const link of preloads) {
    if (!link.includes(index.glue) && !link.includes(index.wasm)) throw new UnexpectedOutput(`unexpected preload in index.html: ${link}`);
    html = html.replace(link, '');
  }
  return html.replace(bootTag, `<script type="module" src="./${bootName}"></script>`);
}
