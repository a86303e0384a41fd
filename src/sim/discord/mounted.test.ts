// The simulator mounted under a path inside a host Express app (how demo mode uses it).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { createDiscordSimulator, type DiscordSimulator } from './index.ts';

let server: Server;
let sim: DiscordSimulator;
let publicUrl: string;
let otherWss: WebSocketServer;

beforeAll(async () => {
  const app = express();
  app.use(express.json()); // the host app's own parsers must not break the simulator
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/discord-sim`;
  sim = createDiscordSimulator({
    publicUrl,
    clientId: '900000000000000009',
    clientSecret: 's',
    botToken: 'tok',
  });
  app.use('/discord-sim', sim.router);
  app.get('/health', (_req, res) => void res.send('ok'));
  sim.attachGateway(server);
  // Another WebSocket endpoint on the same server keeps working.
  otherWss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (req.url === '/ws') otherWss.handleUpgrade(req, socket, head, (ws) => ws.send('other'));
  });
  sim.state.seedDemo();
});

afterAll(async () => {
  await sim.close();
  otherWss.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('works under a path prefix for REST, pages and the gateway', async () => {
  const gw = (await (
    await fetch(`${publicUrl}/api/v10/gateway/bot`, { headers: { authorization: 'Bot tok' } })
  ).json()) as { url: string };
  expect(gw.url).toBe(publicUrl.replace('http:', 'ws:') + '/gateway');
  const index = await (await fetch(`${publicUrl}/`)).text();
  expect(index).toContain('href="/discord-sim/invite/pixel-raiders"');
  expect(await (await fetch(publicUrl.replace('/discord-sim', '/health'))).text()).toBe('ok');

  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${publicUrl}/api` } });
  try {
    const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
    await client.login('tok');
    await ready;
    expect(client.guilds.cache.size).toBe(5);
  } finally {
    await client.destroy();
  }

  const message = await new Promise<string>((resolve, reject) => {
    const ws = new WebSocket(publicUrl.replace('http:', 'ws:').replace('/discord-sim', '/ws'));
    ws.on('message', (data: Buffer) => {
      resolve(data.toString('utf8'));
      ws.close();
    });
    ws.on('error', reject);
  });
  expect(message).toBe('other');
});
