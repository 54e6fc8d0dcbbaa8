import { chromium } from 'playwright-core';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
const dist = '/work/main/dist';
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };
const server = http.createServer((req, res) => {
  let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (p.endsWith('/')) p += 'index.html';
  const f = path.join(dist, p);
  if (!fs.existsSync(f)) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'content-type': types[path.extname(f)] || 'application/octet-stream' });
  res.end(fs.readFileSync(f));
}).listen(0);
const port = server.address().port;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--enable-unsafe-webgpu'] });
const ids = process.argv.slice(2);
for (const id of ids) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errs = [];
  page.on('console', (m) => { if (m.type() === 'error') errs.push(m.text()); });
  page.on('pageerror', (e) => errs.push(String(e)));
  await page.goto(`http://localhost:${port}/?lesson=${id}`);
  try { await page.waitForSelector('[data-testid=model-player]', { timeout: 15000 }); console.log(id, 'drawn'); } catch { console.log(id, 'NOT drawn'); }
  if (errs.length) console.log(errs.slice(0, 3).join('\n').slice(0, 1500));
  if (process.env.SHOT) await page.screenshot({ path: `/tmp/shot-${id}.png`, fullPage: false });
  await page.close();
}
await browser.close(); server.close();
