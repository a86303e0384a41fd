import type http from 'node:http';

/**
 * Answers while the process is still starting (checking the database, waiting for Redis), so the bound
 * port never leaves a client hanging: /api/health 200 (the process lives), /api/ready 503 with what
 * start-up is waiting for, everything else 503 with Retry-After.
 */
export function startingResponder(phase: () => string): http.RequestListener {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'retry-after': '5',
      });
      res.end(JSON.stringify(body));
    };
    if (path === '/api/health') return send(200, { status: 'ok', starting: true });
    if (path === '/api/ready') return send(503, { status: 'starting', message: `Starting: ${phase()}` });
    send(503, { message: `CoinSync is starting (${phase()}). Please try again in a moment.` });
  };
}
