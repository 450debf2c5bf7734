// A plain static file server on 127.0.0.1, for the tests that prove the editors work with no formgen
// service at all: it serves files and nothing else (every /api/formgen/… answers 404, as a host without
// formgen would). `requests` lists the paths asked for.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.woff': 'font/woff', '.woff2': 'font/woff2',
  '.ttf': 'font/ttf', '.eot': 'application/vnd.ms-fontobject', '.png': 'image/png', '.json': 'application/json',
};

/**
 * Serves `root` (a folder) until `stop()`; `files` adds pages by their paths (`{'/bench.html': html}`).
 * @param {string} root
 * @param {{ files?: Record<string, string> }} [options]
 * @returns {Promise<{ url: string, requests: string[], stop: () => Promise<void> }>}
 */
export async function serveStatic(root, { files = {} } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(path);
    if (path in files) return void res.writeHead(200, { 'content-type': TYPES[extname(path)] || 'text/plain' }).end(files[path]);
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep) && file !== root) return void res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    stop: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
