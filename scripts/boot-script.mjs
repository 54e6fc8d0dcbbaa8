// Trunk post-build hook: moves the inline start-up script Trunk writes into index.html out
// into its own file, so the site runs under a strict Content-Security-Policy
// (`script-src 'self' 'wasm-unsafe-eval'`), which forbids inline scripts.
//
// Trunk runs it with TRUNK_STAGING_DIR set; the file name carries a hash of the script, as
// Trunk's own outputs do, so a long-lived cache never serves a stale one.
import fs from 'node:fs';
import path from 'node:path';
import { moveInlineBoot, UnexpectedOutput } from './lib/boot.mjs';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('boot-script.mjs: TRUNK_STAGING_DIR is not set (run it from trunk as a hook)');
  process.exit(1);
}
const indexPath = path.join(dir, 'index.html');
const html = fs.readFileSync(indexPath, 'utf8');
let moved;
try {
  moved = moveInlineBoot(html);
} catch (error) {
  if (!(error instanceof UnexpectedOutput)) throw error;
  console.error(`boot-script.mjs: ${error.message}`);
  process.exit(1);
}
fs.writeFileSync(path.join(dir, moved.name), moved.body);
fs.writeFileSync(indexPath, moved.html);
