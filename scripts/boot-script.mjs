// Trunk post-build hook: moves the inline start-up script Trunk writes into index.html out
// into its own file, so the site runs under a strict Content-Security-Policy
// (`script-src 'self' 'wasm-unsafe-eval'`), which forbids inline scripts.
//
// Trunk runs it with TRUNK_STAGING_DIR set; the file name carries a hash of the script, as
// Trunk's own outputs do, so a long-lived cache never serves a stale one.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('boot-script.mjs: TRUNK_STAGING_DIR is not set (run it from trunk as a hook)');
  process.exit(1);
}
const indexPath = path.join(dir, 'index.html');
const html = fs.readFileSync(indexPath, 'utf8');
// Release builds minify the HTML: the attribute may lose its quotes, `init` its name.
const inline = /<script type="?module"?>([\s\S]*?)<\/script>/;
const match = html.match(inline);
if (!match || !/\bimport\b/.test(match[1])) {
  console.error('boot-script.mjs: no inline start-up script in index.html; Trunk changed its output?');
  console.error(html);
  process.exit(1);
}
const body = match[1].trim() + '\n';
const hash = crypto.createHash('sha256').update(body).digest('hex').slice(0, 16);
const name = `boot-${hash}.js`;
fs.writeFileSync(path.join(dir, name), body);
fs.writeFileSync(indexPath, html.replace(inline, `<script type="module" src="./${name}"></script>`));
