import express from 'express';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

// A reference server for the Discover comparison, run as its own process (like the product) so the
// load generator never shares its event loop. Answers every request with the same precomputed bytes
// as the product's Discover response; `express-pages` answers GET <path> with the HTML file
// <dir>/<encodeURIComponent(path)>.html, read once (the page bench's static shell of the same size; a
// file that is gzip data is sent as such, with Content-Encoding: gzip).
//   node --import tsx scripts/bench/reference-server.ts raw|express <body-file>
//   node --import tsx scripts/bench/reference-server.ts express-pages <dir>

const [kind, bodyFile] = process.argv.slice(2);
if ((kind !== 'raw' && kind !== 'express' && kind !== 'express-pages') || !bodyFile) {
  console.error('usage: reference-server.ts raw|express <body-file> | express-pages <dir>');
  process.exit(2);
}
const body = kind === 'express-pages' ? Buffer.alloc(0) : readFileSync(bodyFile);

let server: http.Server;
if (kind === 'express-pages') {
  const pages = new Map<string, Buffer>();
  const app = express();
  app.disable('x-powered-by');
  app.get('/{*path}', (req, res) => {
    let page = pages.get(req.path);
    if (!page) {
      page = readFileSync(path.join(bodyFile, encodeURIComponent(req.path) + '.html'));
      pages.set(req.path, page);
    }
    // A page saved as the product sent it gzip-compressed (the pages bench: the same bytes on the wire).
    if (page[0] === 0x1f && page[1] === 0x8b) res.setHeader('Content-Encoding', 'gzip');
    res.type('html').send(page);
  });
  server = http.createServer(app);
} else if (kind === 'raw') {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
} else {
  const app = express();
  app.disable('x-powered-by');
  // Same default behaviour as the product's res.json (content type, weak ETag), without its middleware.
  app.get('/api/servers', (_req, res) => {
    res.type('json').send(body);
  });
  server = http.createServer(app);
}

server.listen(0, '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});
const shutdown = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
