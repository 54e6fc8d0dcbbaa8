// A static file server for the built site, optionally under a sub-path, on loopback only.
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/**
 * Serves `root` at `base` (e.g. "/" or "/some/sub/path/"); `headers` go on every response.
 * With `validators`, files carry `Last-Modified` and an `ETag` and a request that names the
 * current one is answered 304, as any static host does: what lets a browser keep a file between
 * pages (the bench's "going on through the course").
 */
export async function serve({ root, base = '/', headers = {}, extra = {}, validators = false }) {
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (extra[url.pathname]) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      return res.end(extra[url.pathname]);
    }
    if (!url.pathname.startsWith(base)) {
      res.writeHead(404);
      return res.end('not under ' + base);
    }
    let rel = decodeURIComponent(url.pathname.slice(base.length)) || 'index.html';
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(root, path.normalize(rel));
    if (!file.startsWith(path.resolve(root))) {
      res.writeHead(403);
      return res.end();
    }
    try {
      const body = await fs.readFile(file);
      const type = { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' };
      if (validators) {
        // Size and modification time, as common static servers make it.
        const { mtime, size } = await fs.stat(file);
        const tag = `"${size.toString(16)}-${Math.floor(mtime.getTime()).toString(16)}"`;
        const kept = { etag: tag, 'last-modified': mtime.toUTCString() };
        if (req.headers['if-none-match'] === tag) {
          res.writeHead(304, { ...kept, ...headers });
          return res.end();
        }
        Object.assign(type, kept);
      }
      res.writeHead(200, { ...type, ...headers });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, url: `http://127.0.0.1:${port}${base}`, close: () => server.close() };
}
