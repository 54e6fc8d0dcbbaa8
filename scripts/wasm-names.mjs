// Short names for what a page's wasm and its JS glue call each other by.
//
// wasm-bindgen names each import after the function it wraps plus a 16-digit hash
// (`__wbg_createElement_8a7c…`), and each exported closure shim after its whole Rust type; a page
// has about 300 of them, written twice (in the wasm's import and export sections and in the glue),
// and the hashes do not compress. Renamed to `$0`, `$1`, … in both they cost 6 KB less gzip in the
// wasm and 4 KB less in the glue, on every lesson page (scripts/bench.sh; docs/figures.md, "Page weight").
//
// Only names the glue alone uses are renamed: the imports from the glue's own module, and the
// exports except those another script reads by name (`keep`: the split modules' loader).
//
// Exports the page never calls can go too (`drop`): Leptos's server functions bring a streams
// adapter whose classes wasm-bindgen exports, and with them 1.6 KB gzip of code no client-side
// page runs. Dropped before wasm-opt, their code goes with them.

/** Reads an unsigned LEB128 at `at`: [value, position after it]. */
function leb(buf, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = buf[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

function encodeLeb(n) {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
}

function readName(buf, at) {
  const [length, start] = leb(buf, at);
  return [buf.subarray(start, start + length).toString('utf8'), start + length];
}

const encodeName = (s) => Buffer.concat([encodeLeb(Buffer.byteLength(s)), Buffer.from(s)]);

/** Skips an import's description (what follows its two names): the position after it. */
function skipImportDescription(buf, at) {
  const kind = buf[at++];
  const limits = (p) => {
    const flags = buf[p++];
    [, p] = leb(buf, p);
    if (flags & 1) [, p] = leb(buf, p);
    return p;
  };
  switch (kind) {
    case 0: return leb(buf, at)[1]; // function: its type index
    case 1: return limits(at + 1); // table: element type, limits
    case 2: return limits(at); // memory: limits
    case 3: return at + 2; // global: value type, mutability
    case 4: return leb(buf, at + 1)[1]; // tag: attribute, type index
    default: throw new Error(`wasm-names: an import of unknown kind ${kind}`);
  }
}

/**
 * Renames, in `wasm`, every import from `glueModule` and every export not in `keep`, and leaves
 * out the exports `drop` matches. Returns the new wasm, the names given (old → new) and which
 * of them were imports.
 */
export function shortenNames(wasm, glueModule, keep, drop = /^$/) {
  const renamed = new Map();
  const imported = new Set();
  const rename = (old) => {
    if (!renamed.has(old)) renamed.set(old, `$${renamed.size.toString(36)}`);
    return renamed.get(old);
  };
  const parts = [wasm.subarray(0, 8)];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, body] = leb(wasm, at + 1);
    const end = body + size;
    if (id !== 2 && id !== 7) {
      parts.push(wasm.subarray(at, end));
      at = end;
      continue;
    }
    let [count, p] = leb(wasm, body);
    const out = [];
    let kept = 0;
    for (let i = 0; i < count; i++) {
      if (id === 2) {
        let module, field;
        [module, p] = readName(wasm, p);
        [field, p] = readName(wasm, p);
        const description = p;
        p = skipImportDescription(wasm, p);
        if (module === glueModule) imported.add(field);
        out.push(encodeName(module), encodeName(module === glueModule ? rename(field) : field), wasm.subarray(description, p));
        kept++;
      } else {
        let field;
        [field, p] = readName(wasm, p);
        const description = p;
        p = leb(wasm, p + 1)[1]; // kind, index
        if (drop.test(field)) continue;
        out.push(encodeName(keep.has(field) ? field : rename(field)), wasm.subarray(description, p));
        kept++;
      }
    }
    if (p !== end) throw new Error(`wasm-names: section ${id} read to ${p}, but it ends at ${end}`);
    const content = Buffer.concat([encodeLeb(kept), ...out]);
    parts.push(Buffer.from([id]), encodeLeb(content.length), content);
    at = end;
  }
  return { wasm: Buffer.concat(parts), renamed, imported };
}

/** `glue` with every renamed name replaced where it stands as a whole identifier; each of
 * `imported` must be found, or the page would not start. */
export function renameInGlue(glue, renamed, imported) {
  if (!renamed.size) return glue;
  const escape = (w) => w.replace(/\$/g, '\\$');
  const words = [...renamed.keys()].sort((a, b) => b.length - a.length).map(escape);
  const pattern = new RegExp(`(?<![\\w$])(?:${words.join('|')})(?![\\w$])`, 'g');
  const seen = new Set();
  const out = glue.replace(pattern, (word) => {
    seen.add(word);
    return renamed.get(word);
  });
  const missing = [...imported].filter((w) => !seen.has(w));
  if (missing.length) throw new Error(`wasm-names: not in the glue: ${missing.slice(0, 5).join(', ')}`);
  return out;
}
