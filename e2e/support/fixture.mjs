// Per-file set-up: the built site on a loopback server and one browser.
import { before, after, afterEach } from 'node:test';
import path from 'node:path';
import { serve } from './server.mjs';
import { launch, releasePages } from './browser.mjs';

export const DIST = process.env.SYNCSCOPE_DIST ? path.resolve(process.env.SYNCSCOPE_DIST) : path.resolve(import.meta.dirname, '..', '..', 'dist');

/** Returns an object whose `url` and `browser` are filled in before the file's tests run;
 * `webgpu` and `hosts` are the browser's (see `launch`). */
export function useSite({ webgpu = true, hosts = [], base = '/', headers = {}, extra = {}, validators = false } = {}) {
  const site = {};
  before(async () => {
    site.server = await serve({ root: DIST, base, headers, extra, validators });
    site.url = site.server.url;
    site.origin = site.server.origin;
    site.browser = await launch({ webgpu, hosts });
  });
  // The pages a test opened are closed, or kept for the next test to navigate (openPage).
  afterEach(async () => {
    if (site.browser) await releasePages(site.browser);
  });
  after(async () => {
    await site.browser?.close();
    site.server?.close();
  });
  return site;
}
