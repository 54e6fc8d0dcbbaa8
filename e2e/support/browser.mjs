// Headless Chromium from the system (Debian's /usr/bin/chromium), with or without WebGPU.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** How long any wait may take before it fails (ms). */
export const LONG = 90_000;

export const ARTIFACTS = path.resolve(import.meta.dirname, '..', 'artifacts');
fs.mkdirSync(ARTIFACTS, { recursive: true });

const QUIET = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
];

/**
 * `webgpu: false` leaves the flag off, so `requestAdapter()` returns null: a real no-GPU page.
 * `hosts`: names the browser resolves to 127.0.0.1, where the test server listens. The site at
 * `http://<name>:<port>/` is then served from a host that is not localhost, so it is not a
 * secure context, as on an `http://` course page (127.0.0.1 itself counts as secure).
 */
export async function launch({ webgpu = true, hosts = [] } = {}) {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  const args = [
    ...QUIET,
    ...(webgpu ? ['--enable-unsafe-webgpu', '--enable-features=Vulkan'] : []),
    ...(hosts.length ? [`--host-resolver-rules=${hosts.map((h) => `MAP ${h} 127.0.0.1`).join(',')}`] : []),
  ];
  return chromium.launch({ executablePath, args, headless: true });
}

/**
 * A page that remembers every console error and uncaught exception: `url` opened with the
 * context options `options`; `initScript`, if given, runs in the page before its own scripts.
 *
 * A tab a finished test left behind (see `releasePages`) is navigated rather than a new one
 * made, when it was made with the same options: a fresh context costs a new renderer process
 * and a new compile of the page's wasm, about 0.6 s of the 0.9 s a lesson takes to open here,
 * where a tab that opened the same page before finds its module compiled. Its storage, size and
 * media are set back first. A test that needs a context of its own passes `fresh: true`.
 */
export async function openPage(browser, url, { initScript, fresh = false, ...options } = {}) {
  const key = JSON.stringify([options, String(initScript ?? '')]);
  const tabs = pool(browser);
  const spare = fresh ? undefined : tabs.find((t) => t.free && t.key === key && !t.page.isClosed());
  if (spare) {
    spare.free = false;
    await reset(spare.page, options);
    await spare.page.goto(url);
    return spare.page;
  }
  const context = await browser.newContext(options);
  // Generous: the GPU is SwiftShader on the CPU, and a second browser or a build beside the
  // tests can slow a page threefold. A wait that fails says what it waited for.
  context.setDefaultTimeout(LONG);
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') page.errors.push(m.text());
  });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.tab = { page, tabs, key, free: false, listeners: listenerCounts(page) };
  tabs.push(page.tab);
  await page.goto(url);
  return page;
}

const EVENTS = ['close', 'console', 'crash', 'dialog', 'download', 'filechooser', 'frameattached', 'framedetached',
  'framenavigated', 'load', 'pageerror', 'popup', 'request', 'requestfailed', 'requestfinished', 'response', 'websocket', 'worker'];

function listenerCounts(page) {
  return EVENTS.map((e) => page.listenerCount(e)).join();
}

const pools = new WeakMap();
function pool(browser) {
  if (!pools.has(browser)) pools.set(browser, []);
  return pools.get(browser);
}

/** A reused tab as a new context with `options` would open: no errors remembered, storage
 * empty, the context's size and media. */
async function reset(page, options) {
  page.errors.length = 0;
  await page.evaluate(() => {
    try {
      localStorage.clear();
      sessionStorage.clear();
    } catch {
      // about:blank or an opaque origin has no storage to clear.
    }
  });
  const viewport = options.viewport === undefined ? { width: 1280, height: 720 } : options.viewport;
  if (viewport) await page.setViewportSize(viewport);
  await page.emulateMedia({
    media: null,
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'no-preference',
    forcedColors: options.forcedColors ?? 'none',
  });
}

/**
 * Called after each test (`useSite` does): the tabs its pages are in may serve the next test,
 * one per set of options (see `closePage`).
 */
export async function releasePages(browser) {
  for (const tab of [...pool(browser)]) if (!tab.free) await putBack(tab);
}

/**
 * Done with `page`: its tab is kept for the next `openPage` with the same options, unless the
 * test listened to it or watched it on the wire (`overTheWire`), or a tab is already kept for
 * those options; then it is closed.
 */
export async function closePage(page) {
  const tab = page.tab;
  if (tab) await putBack(tab);
  else await page.context().close();
}

async function putBack(tab) {
  const { tabs, page } = tab;
  const reusable = !page.isClosed() && !page.watched && listenerCounts(page) === tab.listeners &&
    !tabs.some((t) => t !== tab && t.free && t.key === tab.key);
  if (reusable) {
    tab.free = true;
    return;
  }
  tabs.splice(tabs.indexOf(tab), 1);
  if (!page.isClosed()) await page.context().close().catch(() => {});
}

/** Scrolls a lesson page's GPU panel into view, as a reader does: the built site fetches a
 * lesson's GPU half, and looks for the GPU, only as the reader nears that panel. */
export async function showGpuPanel(page) {
  // Once the page has drawn itself (the index has no GPU panel).
  await page.locator('main#main > *').first().waitFor();
  const panel = page.locator('.gpu-panel').first();
  if (await panel.count()) await panel.scrollIntoViewIfNeeded();
}

/** Brings the GPU panel into view (if the page has one) and waits until the GPU's state is
 * `state` ('ready', 'unavailable'). */
export async function waitForGpu(page, state = 'ready', { timeout = LONG } = {}) {
  await showGpuPanel(page);
  await page.waitForFunction((want) => document.querySelector('[data-testid=gpu-status]')?.dataset.state === want, state, { timeout });
}

/**
 * From now on, what `page` fetches over the network: `files`, each body that arrives ({ url,
 * raw, gzip: its size as a host that compresses would send it }), and `cached`, how many came
 * from the browser's cache instead (fresh by their `Last-Modified`, or confirmed by a 304).
 * `settled()` waits for the network to go idle and every body to be read. The test server does
 * not compress, so a body that came over the wire took at least its own length.
 */
export async function overTheWire(page) {
  page.watched = true; // not handed to another test: its session goes on reading every body
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map();
  const pending = [];
  const wire = {
    files: [],
    cached: 0,
    reset() {
      wire.files.length = 0;
      wire.cached = 0;
    },
    async settled() {
      await page.waitForLoadState('networkidle');
      await Promise.all(pending);
    },
  };
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url));
  cdp.on('Network.loadingFinished', (e) => {
    pending.push(cdp.send('Network.getResponseBody', { requestId: e.requestId }).then(({ body, base64Encoded }) => {
      const bytes = Buffer.from(body, base64Encoded ? 'base64' : 'utf8');
      if (e.encodedDataLength < bytes.length) wire.cached += 1;
      else wire.files.push({ url: urls.get(e.requestId), raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length });
    }, () => {}));
  });
  return wire;
}

/** Brings the GPU panel into view and waits until the GPU is ready and nothing is left
 * compiling in the background: the pipelines the page's first run will use are in hand. */
export async function waitForWarmGpu(page, { timeout = 30_000 } = {}) {
  await showGpuPanel(page);
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid=gpu-status]');
    return s?.dataset.state === 'ready' && s.dataset.warming === '0';
  }, null, { timeout });
}

export function screenshotPath(name) {
  return path.join(ARTIFACTS, `${name}.png`);
}

/** The lesson ids in the order the site's index lists them: read from the site, which takes
 * them from its one lesson table, so no test keeps a copy of the list. */
export async function lessonIds(browser, url) {
  const page = await openPage(browser, url);
  await page.locator('[data-testid=lesson-list] [data-lesson]').first().waitFor();
  const ids = await page.$$eval('[data-testid=lesson-list] [data-lesson]', (items) => items.map((i) => i.dataset.lesson));
  await page.context().close();
  if (ids.length === 0) throw new Error('the index lists no lessons');
  return ids;
}
