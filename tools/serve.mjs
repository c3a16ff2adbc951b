#!/usr/bin/env node
// Serves the built page (dist/) the way a static host does, for `make serve`: every file as
// it is, with the content type a host sends (the wasm as application/wasm, so the browser
// compiles it while it downloads), a folder's index.html for the folder. Nothing is
// rebuilt on change: `make serve` builds first (for live reload, `trunk serve` reads the
// same index.html and Trunk.toml).
//
//   node tools/serve.mjs [DIR] [--host 127.0.0.1] [--port 8080]
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Content types by file extension, as a static server sends them. */
export const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
};

/** The file under `dir` that `urlPath` names (a folder's index.html), or null outside `dir`. */
export function fileFor(dir, urlPath) {
  const wanted = urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath;
  const base = path.resolve(dir);
  const file = path.join(base, path.normalize(wanted));
  return file.startsWith(base + path.sep) ? file : null;
}

/** Answers with `file` and its content type, or 404 when it cannot be read. */
export async function sendFile(res, file) {
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    return at >= 0 ? args.splice(at, 2)[1] : fallback;
  };
  const host = option('--host', '127.0.0.1');
  const port = Number(option('--port', '8080'));
  const dir = path.resolve(args[0] || 'dist');
  createServer(async (req, res) => {
    let file;
    try {
      file = fileFor(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    } catch {
      file = null;
    }
    if (!file) { res.writeHead(400).end('bad path'); return; }
    await sendFile(res, file);
  }).listen(port, host, () => console.log(`serving ${path.relative(process.cwd(), dir) || '.'}/ on http://${host}:${port}/ (Ctrl-C stops)`));
}
