// The start-up script's move out of index.html, and the names of the files the scripts write.
// Node's own modules only, so that scripts/boot-script.mjs, which Trunk runs after every build
// (each rebuild of `trunk serve` too), needs nothing from npm.
import crypto from 'node:crypto';

/** Build output in a shape these scripts do not know (a tool changed its output): the build
 * stops with the message rather than ship a site that does not start. */
export class UnexpectedOutput extends Error {}

/** The first 16 hex digits of the SHA-256 of `bodies` (strings or bytes) one after another. */
export function contentHash(...bodies) {
  const h = crypto.createHash('sha256');
  for (const b of bodies) h.update(b);
  return h.digest('hex').slice(0, 16);
}

/** A start-up script's file name: a hash of the script in it, as in Trunk's own outputs', so a
 * long-lived cache never serves a stale one. */
export const bootFileName = (code) => `boot-${contentHash(code)}.js`;

// Release builds minify the HTML: the attribute may lose its quotes, `init` its name.
const INLINE = /<script type="?module"?>([\s\S]*?)<\/script>/;

/**
 * Takes the inline start-up script Trunk writes out of `html`: returns the script (`body`), the
 * file it goes in (`name`) and the page loading it from there (`html`).
 */
export function moveInlineBoot(html) {
  const match = html.match(INLINE);
  if (!match || !/\bimport\b/.test(match[1])) {
    throw new UnexpectedOutput(`no inline start-up script in index.html; Trunk changed its output?\n${html}`);
  }
  const body = match[1].trim() + '\n';
  const name = bootFileName(body);
  return { name, body, html: html.replace(INLINE, `<script type="module" src="./${name}"></script>`) };
}
