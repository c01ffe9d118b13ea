// A static file server for the browser runs: the package as installed (lib/, pkg/), its
// node_modules (noble's hashes for the vectors' pre-hash cases, noble itself for the bench),
// the shared vectors and the test modules. 127.0.0.1 only, on a free port.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, normalize, resolve } from 'node:path';

// Cross-origin isolation: Chromium then gives performance.now() 5 µs resolution instead of
// 100 µs (the benchmark's samples), and everything served is same-origin anyway.
const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.html': 'text/html', '.wasm': 'application/wasm' };

/** mounts: { '/prefix/': '/abs/dir' }; pages: { '/path': 'html' }. Resolves to { url, close }. */
export function serve(mounts, pages) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (pages[path] !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html', ...ISOLATED }).end(pages[path]);
      return;
    }
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (!path.startsWith(prefix)) continue;
      const file = resolve(dir, normalize(path.slice(prefix.length)));
      if (!file.startsWith(resolve(dir))) break;
      try {
        const body = await readFile(file);
        res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', ...ISOLATED }).end(body);
      } catch {
        res.writeHead(404).end();
      }
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }))
  );
}

/** An HTML page that loads `module` with the package mapped as a user's import map would. */
export function page(module) {
  const imports = {
    'mldsa-rs': '/package/lib/index.js',
    'mldsa-rs/': '/package/lib/',
    '@noble/hashes/': '/node_modules/@noble/hashes/',
    '@noble/post-quantum/': '/node_modules/@noble/post-quantum/',
    '@noble/curves/': '/node_modules/@noble/curves/',
    '@noble/ciphers/': '/node_modules/@noble/ciphers/',
    '@oqs/liboqs-js': '/node_modules/@oqs/liboqs-js/src/index.js',
  };
  return `<!doctype html><meta charset="utf-8"><title>mldsa-rs</title>
<script type="importmap">${JSON.stringify({ imports })}</script>
<script type="module" src="${module}"></script>`;
}

