// Discord gateway (v10, JSON encoding, no compression) over WebSocket.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  GatewayOpcodes as Op,
  type ApplicationFlags,
  type GatewayDispatchEvents,
  type GatewayDispatchPayload,
  type GatewayGuildAuditLogEntryCreateDispatchData,
  type GatewayGuildBanAddDispatchData,
  type GatewayGuildCreateDispatchData,
  type GatewayGuildDeleteDispatchData,
  type GatewayGuildMemberAddDispatchData,
  type GatewayGuildMemberRemoveDispatchData,
  type GatewayGuildMembersChunkDispatchData,
  type GatewayReadyDispatchData,
  type GatewayReceivePayload,
} from 'discord-api-types/v10';
import { WebSocketServer, type WebSocket } from 'ws';
import { auditEntryObject, guildCreatePayload, memberObject, userObject } from './payloads.ts';
import { PRIVILEGED_INTENTS, type SimEvent, type SimGuild, type SimState } from './state.ts';

/**
 * What each dispatch the simulator sends carries: discord-api-types' types, the ones discord.js
 * reads, so the compiler holds every dispatch to them. Add an event here before dispatching it.
 */
interface DispatchData {
  READY: GatewayReadyDispatchData & ReadyExtras;
  RESUMED: Record<string, never>; // discord-api-types says no data; Discord sends an object
  GUILD_CREATE: GatewayGuildCreateDispatchData;
  GUILD_DELETE: GatewayGuildDeleteDispatchData;
  GUILD_MEMBER_ADD: GatewayGuildMemberAddDispatchData;
  GUILD_MEMBER_REMOVE: GatewayGuildMemberRemoveDispatchData;
  GUILD_MEMBERS_CHUNK: GatewayGuildMembersChunkDispatchData;
  GUILD_AUDIT_LOG_ENTRY_CREATE: GatewayGuildAuditLogEntryCreateDispatchData;
  GUILD_BAN_ADD: GatewayGuildBanAddDispatchData;
  // interactions.ts builds its payloads as plain records for now; they should become
  // GatewayInteractionCreateDispatchData (APIInteraction) like the rest.
  INTERACTION_CREATE: Record<string, unknown>;
}
/** Only real event names (a typo is a compile error). */
type DispatchName = keyof DispatchData & `${GatewayDispatchEvents}`;

/** Fields real READY payloads carry for bots that discord-api-types leaves out. */
interface ReadyExtras {
  user_settings: Record<string, never>;
  session_type: 'normal';
  private_channels: [];
  relationships: [];
  presences: [];
  guild_join_requests: [];
  geo_ordered_rtc_regions: string[];
  auth: Record<string, never>;
}

const Intent = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildModeration: 1 << 2,
  GuildPresences: 1 << 8,
} as const;
/** Every intent bit Discord defines today (up to DirectMessagePolls, 1 << 25). */
const ALL_INTENTS = (1 << 26) - 1;

/** Close code that discord.js answers with a RESUME (4000 = unknown error). */
const CLOSE_RESUMABLE = 4000;

/** Dispatches kept per session for RESUME: Discord replays what a resuming client missed. */
const REPLAY_LIMIT = 1000;
/** How long a disconnected session keeps collecting events for a RESUME. */
const RESUME_WINDOW_MS = 60_000;

interface Session {
  id: string;
  seq: number;
  /** The last dispatches (sequence, name, data), replayed after a RESUME's `seq`. */
  replay: { s: number; t: DispatchName; d: unknown }[];
  /** When its socket closed (null while connected). */
  detachedAt: number | null;
  intents: number;
  socket: WebSocket | null;
  /** [shard_id, num_shards] from IDENTIFY ([0, 1] without sharding). */
  shard: [number, number];
}

/** Discord's rule: a guild lives on shard (guild_id >> 22) % num_shards. */
export function shardOf(guildId: string, numShards: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(numShards));
}

const onShard = (guild: SimGuild, session: Session): boolean =>
  shardOf(guild.id, session.shard[1]) === session.shard[0];

interface Connection {
  socket: WebSocket;
  session: Session | null;
}

export interface Gateway {
  attach(server: Server): void;
  close(): Promise<void>;
}

export function createGateway(opts: {
  state: SimState;
  gatewayPath: string;
  gatewayUrl: string;
  botToken: string;
  log: (msg: string) => void;
}): Gateway {
  const { state, log } = opts;
  const wss = new WebSocketServer({ noServer: true });
  const sessions = new Map<string, Session>();
  const connections = new Set<Connection>();
  const servers = new Set<Server>();

  // Discord sends `d: null` on Reconnect and Heartbeat ACK, where discord-api-types has no `d`.
  type Frame = GatewayReceivePayload | { op: Op.Reconnect | Op.HeartbeatAck; d: null; s: null; t: null };
  const send = (socket: WebSocket, payload: Frame): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
  };

  // The event name and its data are checked against DispatchData above; the union of all
  // dispatch frames cannot be narrowed from a generic name, hence the one assertion.
  const frame = (s: number, t: DispatchName, d: unknown) =>
    ({ op: Op.Dispatch, t, s, d }) as GatewayDispatchPayload;

  const dispatch = <T extends DispatchName>(session: Session, t: T, d: DispatchData[T]): void => {
    session.seq += 1;
    session.replay.push({ s: session.seq, t, d });
    if (session.replay.length > REPLAY_LIMIT) session.replay.splice(0, session.replay.length - REPLAY_LIMIT);
    if (session.socket) send(session.socket, frame(session.seq, t, d));
  };

  /**
   * Sessions that get events: connected ones, and ones that lost their socket a moment ago (op 7, a
   * network blip), whose events wait for their RESUME. During a simulated outage nothing is kept,
   * as after an outage longer than Discord's replay window.
   */
  const liveSessions = (): Session[] => {
    if (!state.gatewayOnline) return [];
    const now = Date.now();
    return [...sessions.values()].filter(
      (s) => s.socket !== null || (s.detachedAt !== null && now - s.detachedAt < RESUME_WINDOW_MS),
    );
  };

  const onStateEvent = (event: SimEvent): void => {
    if (event.type === 'gatewayOnline') {
      if (!event.online) {
        log('gateway offline: closing all sockets');
        for (const c of connections) c.socket.close(CLOSE_RESUMABLE, 'Simulated outage');
      }
      return;
    }
    if (event.type === 'reconnect') {
      for (const c of connections) send(c.socket, { op: Op.Reconnect, d: null, s: null, t: null });
      return;
    }
    if (event.type === 'interaction') {
      // No intent needed; a DM interaction goes to shard 0 (Discord's rule for DMs).
      const home = event.guildId ? state.guilds.get(event.guildId) : undefined;
      for (const session of liveSessions()) {
        if (home ? onShard(home, session) : session.shard[0] === 0)
          dispatch(session, 'INTERACTION_CREATE', event.payload);
      }
      return;
    }
    const guild = state.guilds.get(event.guildId);
    if (!guild?.botJoinedAt) return;
    // Unreliable mode loses some member and moderation events (never READY or guild events).
    const droppable =
      event.type === 'memberAdd' ||
      event.type === 'memberRemove' ||
      event.type === 'auditEntry' ||
      event.type === 'banAdd';
    if (droppable && state.unreliable.dropEvent()) return;
    for (const session of liveSessions()) {
      if (!onShard(guild, session)) continue;
      switch (event.type) {
        case 'guildCreate':
          if (session.intents & Intent.Guilds) {
            dispatch(
              session,
              'GUILD_CREATE',
              guildCreatePayload(state, guild, Boolean(session.intents & Intent.GuildPresences)),
            );
          }
          break;
        case 'guildDelete':
          if (session.intents & Intent.Guilds) {
            dispatch(
              session,
              'GUILD_DELETE',
              event.unavailable ? { id: guild.id, unavailable: true } : { id: guild.id },
            );
          }
          break;
        case 'auditEntry': {
          const entry = state.findAuditEntry(event.entryId);
          // Needs the GuildModeration intent and View Audit Log in the guild.
          if (entry && session.intents & Intent.GuildModeration && guild.botCanViewAuditLog !== false) {
            dispatch(session, 'GUILD_AUDIT_LOG_ENTRY_CREATE', {
              ...auditEntryObject(entry),
              guild_id: guild.id,
            });
          }
          break;
        }
        case 'banAdd': {
          const user = state.getUser(event.userId);
          if (user && session.intents & Intent.GuildModeration) {
            dispatch(session, 'GUILD_BAN_ADD', { guild_id: guild.id, user: userObject(user) });
          }
          break;
        }
        case 'memberAdd': {
          const member = memberObject(state, guild, event.userId);
          if (member && session.intents & Intent.GuildMembers) {
            dispatch(session, 'GUILD_MEMBER_ADD', { ...member, guild_id: guild.id });
          }
          break;
        }
        case 'memberRemove': {
          const user = state.getUser(event.userId);
          if (user && session.intents & Intent.GuildMembers) {
            dispatch(session, 'GUILD_MEMBER_REMOVE', { guild_id: guild.id, user: userObject(user) });
          }
          break;
        }
      }
    }
  };
  const unsubscribe = state.subscribe(onStateEvent);

  // A token Discord no longer accepts (PUT /control/bot-token {valid:false}) fails IDENTIFY with 4004 too.
  const tokenOk = (token: unknown): boolean =>
    state.botTokenValid &&
    typeof token === 'string' &&
    (token === opts.botToken || token === `Bot ${opts.botToken}`);

  const identify = (conn: Connection, d: Record<string, unknown>): void => {
    if (!tokenOk(d.token)) {
      conn.socket.close(4004, 'Authentication failed.');
      return;
    }
    const intents = d.intents;
    if (
      typeof intents !== 'number' ||
      !Number.isInteger(intents) ||
      intents < 0 ||
      (intents & ~ALL_INTENTS) !== 0
    ) {
      conn.socket.close(4013, 'Invalid intent(s).');
      return;
    }
    if (intents & PRIVILEGED_INTENTS & ~state.gateway.allowedPrivilegedIntents) {
      conn.socket.close(4014, 'Disallowed intent(s).');
      return;
    }
    let shard: [number, number] = [0, 1];
    if (d.shard !== undefined) {
      const [shardId, count] = Array.isArray(d.shard) ? (d.shard as unknown[]) : [];
      if (
        !Number.isInteger(shardId) ||
        !Number.isInteger(count) ||
        (count as number) < 1 ||
        (shardId as number) < 0 ||
        (shardId as number) >= (count as number)
      ) {
        conn.socket.close(4010, 'Invalid shard.');
        return;
      }
      shard = [shardId as number, count as number];
    }
    const probe = { shard } as Session;
    const botGuilds = [...state.guilds.values()].filter((g) => g.botJoinedAt && onShard(g, probe));
    if (botGuilds.length > state.gateway.maxGuildsPerShard) {
      conn.socket.close(4011, 'Sharding required.');
      return;
    }
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      seq: 0,
      intents,
      socket: conn.socket,
      shard,
      replay: [],
      detachedAt: null,
    };
    sessions.set(session.id, session);
    if (sessions.size > 50) {
      // Forget disconnected sessions so a long demo does not accumulate them forever.
      const stale = Date.now() - RESUME_WINDOW_MS;
      for (const [id, s] of sessions) if (!s.socket && (s.detachedAt ?? 0) < stale) sessions.delete(id);
    }
    conn.session = session;
    dispatch(session, 'READY', {
      v: 10,
      user_settings: {},
      user: { ...userObject(state.botUser), verified: true, mfa_enabled: false, email: null },
      guilds: botGuilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      session_type: 'normal',
      resume_gateway_url: opts.gatewayUrl,
      shard,
      application: { id: state.botId, flags: 0 as ApplicationFlags, flags_new: '0' },
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      auth: {},
    });
    log(
      `gateway: session ${session.id.slice(0, 8)} identified with intents ${intents}, shard ${shard.join('/')}`,
    );
    if (intents & Intent.Guilds) {
      const all = Boolean(intents & Intent.GuildPresences);
      for (const g of botGuilds) dispatch(session, 'GUILD_CREATE', guildCreatePayload(state, g, all));
    }
  };

  const resume = (conn: Connection, d: Record<string, unknown>): void => {
    if (!tokenOk(d.token)) {
      conn.socket.close(4004, 'Authentication failed.');
      return;
    }
    const session = typeof d.session_id === 'string' ? sessions.get(d.session_id) : undefined;
    if (!session) {
      // Not resumable: the client identifies again.
      send(conn.socket, { op: Op.InvalidSession, d: false, s: null, t: null });
      return;
    }
    // Like Discord: every dispatch after the client's last sequence, in order, then RESUMED. (Events
    // during a simulated outage were never kept, so they stay lost.)
    const seq = typeof d.seq === 'number' ? d.seq : 0;
    const missed = session.replay.filter((f) => f.s > seq);
    if ((missed[0]?.s ?? seq + 1) > seq + 1) {
      // Older than what we keep: Discord answers op 9 (not resumable) and the client identifies.
      send(conn.socket, { op: Op.InvalidSession, d: false, s: null, t: null });
      return;
    }
    if (session.socket && session.socket !== conn.socket)
      session.socket.close(CLOSE_RESUMABLE, 'Resumed elsewhere');
    session.socket = conn.socket;
    session.detachedAt = null;
    conn.session = session;
    for (const f of missed) send(conn.socket, frame(f.s, f.t, f.d));
    dispatch(session, 'RESUMED', {});
    log(`gateway: session ${session.id.slice(0, 8)} resumed`);
  };

  const requestMembers = (conn: Connection, d: Record<string, unknown>): void => {
    const session = conn.session;
    const guild = typeof d.guild_id === 'string' ? state.guilds.get(d.guild_id) : undefined;
    if (!session || !guild?.botJoinedAt || !onShard(guild, session)) return;
    // Member queries need the privileged GuildMembers intent (user_ids included).
    if (!(session.intents & Intent.GuildMembers)) {
      conn.socket.close(4013, 'Invalid intent(s).');
      return;
    }
    if (Array.isArray(d.user_ids) && d.user_ids.length > 100) {
      conn.socket.close(4002, 'Error while decoding payload.');
      return;
    }
    let ids = [...Object.keys(guild.members), state.botId];
    const notFound: string[] = [];
    if (Array.isArray(d.user_ids) || typeof d.user_ids === 'string') {
      const wanted = ([] as unknown[]).concat(d.user_ids).map(String);
      ids = wanted.filter((id) => ids.includes(id));
      notFound.push(...wanted.filter((id) => !ids.includes(id)));
    } else if (typeof d.query === 'string' && d.query) {
      const q = d.query.toLowerCase();
      ids = ids.filter((id) => state.getUser(id)?.username.startsWith(q));
    }
    const limit = typeof d.limit === 'number' && d.limit > 0 ? d.limit : ids.length;
    dispatch(session, 'GUILD_MEMBERS_CHUNK', {
      guild_id: guild.id,
      members: ids
        .slice(0, limit)
        .map((id) => memberObject(state, guild, id))
        .filter((m) => m !== null),
      chunk_index: 0,
      chunk_count: 1,
      not_found: notFound,
      ...(typeof d.nonce === 'string' ? { nonce: d.nonce } : {}),
    });
  };

  wss.on('connection', (socket: WebSocket) => {
    if (!state.gatewayOnline) {
      // Simulated outage: refuse before HELLO; discord.js keeps retrying with its session.
      socket.close(CLOSE_RESUMABLE, 'Simulated outage');
      return;
    }
    const conn: Connection = { socket, session: null };
    connections.add(conn);
    send(socket, { op: Op.Hello, d: { heartbeat_interval: 41250 }, s: null, t: null });
    socket.on('message', (raw, isBinary) => {
      let payload: { op?: unknown; d?: unknown };
      try {
        if (isBinary) throw new Error('binary frames (ETF/compression) are not supported');
        const text = Buffer.isBuffer(raw)
          ? raw.toString('utf8')
          : Buffer.concat(Array.isArray(raw) ? raw : [Buffer.from(raw)]).toString('utf8');
        payload = JSON.parse(text) as { op?: unknown; d?: unknown };
      } catch {
        socket.close(4002, 'Error while decoding payload.');
        return;
      }
      const d = (payload.d && typeof payload.d === 'object' ? payload.d : {}) as Record<string, unknown>;
      switch (payload.op) {
        case Op.Heartbeat:
          send(socket, { op: Op.HeartbeatAck, d: null, s: null, t: null });
          break;
        case Op.Identify:
          if (conn.session) socket.close(4005, 'Already authenticated.');
          else identify(conn, d);
          break;
        case Op.Resume:
          resume(conn, d);
          break;
        case Op.RequestGuildMembers:
          requestMembers(conn, d);
          break;
        case Op.PresenceUpdate:
        case Op.VoiceStateUpdate:
          if (!conn.session) socket.close(4003, 'Not authenticated.');
          break;
        default:
          socket.close(4001, 'Unknown opcode.');
      }
    });
    socket.on('close', () => {
      connections.delete(conn);
      if (conn.session?.socket === socket) {
        conn.session.socket = null;
        conn.session.detachedAt = Date.now();
      }
    });
    socket.on('error', () => undefined);
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
    if (pathname !== opts.gatewayPath) return; // someone else's upgrade
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };

  return {
    attach(server: Server) {
      servers.add(server);
      server.on('upgrade', onUpgrade);
    },
    async close() {
      unsubscribe();
      for (const server of servers) server.off('upgrade', onUpgrade);
      for (const c of connections) c.socket.terminate();
      connections.clear();
      sessions.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
