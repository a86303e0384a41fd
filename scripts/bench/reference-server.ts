import express from 'express';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A reference server for the Discover comparison, run as its own process (like the product) so the
// load generator never shares its event loop. Answers every request with the same precomputed bytes
// as the product's Discover response.
//   node --import tsx scripts/bench/reference-server.ts raw|express <body-file>

const [kind, bodyFile] = process.argv.slice(2);
if ((kind !== 'raw' && kind !== 'express') || !bodyFile) {
  console.error('usage: reference-server.ts raw|express <body-file>');
  process.exit(2);
}
const body = readFileSync(bodyFile);

let server: http.Server;
if (kind === 'raw') {
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
