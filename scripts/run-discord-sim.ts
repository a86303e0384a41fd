// Runs the Discord simulator as its own process, for a production-mode product pointed at it with
// DISCORD_BASE_URL (the production-mode test and the bench). Prints one line with its URL.
//
//   node --import tsx scripts/run-discord-sim.ts [--port 0] [--state file.json]
// Credentials come from SIM_CLIENT_ID, SIM_CLIENT_SECRET and SIM_BOT_TOKEN (defaults: the simulator's).
// SIM_RATE_LIMITS=off turns Discord's rate limits off (on by default, as on Discord).
// SIM_MEMBERS_INTENT=off: the application has no Server Members intent (a new application, or a refused
// review: 4014, no member events, no member list); by default its owner enabled it, as the demo does.
import { parseArgs } from 'node:util';
import { GUILD_MEMBERS_INTENT, startDiscordSimulator } from '../src/sim/discord/index.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, state: { type: 'string' } },
});
const sim = await startDiscordSimulator({
  port: Number(values.port),
  ...(process.env.SIM_CLIENT_ID ? { clientId: process.env.SIM_CLIENT_ID } : {}),
  ...(process.env.SIM_CLIENT_SECRET ? { clientSecret: process.env.SIM_CLIENT_SECRET } : {}),
  ...(process.env.SIM_BOT_TOKEN ? { botToken: process.env.SIM_BOT_TOKEN } : {}),
  ...(values.state ? { statePath: values.state } : {}),
});
// The server benches measure our process, not Discord's per-route limits: they may turn them off.
if (process.env.SIM_RATE_LIMITS === 'off') sim.state.rateLimits.configure({ enabled: false });
sim.state.gateway.allowedPrivilegedIntents =
  process.env.SIM_MEMBERS_INTENT === 'off' ? 0 : GUILD_MEMBERS_INTENT;
console.log(`Discord simulator listening on ${sim.url}`);
const stop = () => {
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
