// A loopback TCP proxy owned by the fault drill, between the product and PostgreSQL: the drill cuts the
// database without touching the shared server. stop(): every proxied connection closed, the port no longer
// listens (new connections: ECONNREFUSED), as a stopped server. hang(): connections stay open and new
// ones are accepted, but nothing is forwarded either way, as a server that no longer answers. restore():
// forwarding again on the same port (a hung connection gets what was held back).
import net from 'node:net';

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  piped: boolean;
}

export interface DrillProxy {
  readonly port: number;
  stop(): Promise<void>;
  hang(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<DrillProxy> {
  const pairs = new Set<Pair>();
  let hanging = false;
  const pipe = (pair: Pair) => {
    if (pair.piped) return;
    pair.piped = true;
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
    pair.client.resume();
    pair.upstream.resume();
  };
  const unpipe = (pair: Pair) => {
    if (!pair.piped) return;
    pair.piped = false;
    pair.client.unpipe(pair.upstream);
    pair.upstream.unpipe(pair.client);
    pair.client.pause();
    pair.upstream.pause();
  };
  const onConnection = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    const pair: Pair = { client, upstream, piped: false };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pause();
    if (!hanging) pipe(pair);
  };
  let server = net.createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  const closeServer = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const destroyAll = () => {
    for (const pair of pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port,
    async stop() {
      const closed = closeServer();
      destroyAll();
      await closed;
    },
    hang() {
      hanging = true;
      for (const pair of pairs) unpipe(pair);
    },
    async restore() {
      hanging = false;
      for (const pair of pairs) pipe(pair);
      if (!server.listening) {
        server = net.createServer(onConnection);
        await listen(port);
      }
    },
    async close() {
      const closed = closeServer();
      destroyAll();
      await closed;
    },
  };
}
