import type { Statement } from 'better-sqlite3';
import type { Connection } from '../db/client.ts';
import {
  DiscoverList,
  type Discover,
  type DiscoverPage,
  type DiscoverQuery,
  type DiscoverRow,
  type DiscoverViewer,
  viewerOf,
} from './discover-list.ts';
import { parseGuildIds } from './member-guilds.ts';

// Discover's list on SQLite (decisions 004/011), kept current without help from the services that
// write campaigns, and synchronously, so a request costs what it did before the async data layer:
//  - TEMP triggers (the writer connection only, no migration) record the id of every campaign written
//    through it (the store's transactions and, until decision 028's step 4, the synchronous ctx.db);
//    the next read re-reads just those rows and moves their entries (no full rebuild per write);
//  - PRAGMA data_version changes when another connection commits to the file: then, and only then,
//    everything is rebuilt, since we cannot know what changed.
// The member's joined campaigns are read per request on the store's read connection.

// Paused campaigns (our bot removed from the guild: nothing could verify a join) are hidden too.
const ACTIVE = `s.members_remaining > 0 AND s.canceled_at IS NULL AND s.invite_valid = 1 AND s.bot_removed_at IS NULL`;

const COLUMNS = `s.id, s.owner_id AS ownerId, s.name, s.invite_link AS inviteLink, s.invite_code AS inviteCode, s.kind,
  s.server_id AS serverId, s.invite_guild_id AS inviteGuildId, s.server_icon AS serverIcon, s.coin_reward AS coinReward,
  s.members_remaining AS membersRemaining, s.initial_member_slots AS initialMemberSlots,
  s.is_featured AS isFeatured, s.featured_at AS featuredAt,
  s.completion_notification_sent AS completionNotificationSent, s.created_at AS createdAt,
  s.min_account_age_days AS minAccountAgeDays, s.target_language AS targetLanguage`;

const ALL_ACTIVE_SQL = `SELECT ${COLUMNS} FROM servers s WHERE ${ACTIVE}`;
const ONE_ACTIVE_SQL = `SELECT ${COLUMNS} FROM servers s WHERE s.id = ? AND ${ACTIVE}`;
// Only completed joins hide a campaign: a pending one is offered again (retry).
const JOINED_SQL =
  'SELECT server_id FROM server_joins WHERE user_id = ? AND (verified = 1 OR coins_awarded = 1 OR has_left = 1)';
// The member's guild list as last read (decision 038): campaigns of guilds they are in are hidden too.
const GUILDS_SQL = 'SELECT guild_ids FROM member_guilds WHERE user_id = ?';

const VERSION_SETUP = `
  CREATE TEMP TABLE IF NOT EXISTS discover_changed (id TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TEMP TRIGGER IF NOT EXISTS discover_servers_ins AFTER INSERT ON main.servers
    BEGIN INSERT OR IGNORE INTO discover_changed (id) VALUES (NEW.id); END;
  CREATE TEMP TRIGGER IF NOT EXISTS discover_servers_upd AFTER UPDATE ON main.servers
    BEGIN
      INSERT OR IGNORE INTO discover_changed (id) VALUES (OLD.id);
      INSERT OR IGNORE INTO discover_changed (id) VALUES (NEW.id);
    END;
  CREATE TEMP TRIGGER IF NOT EXISTS discover_servers_del AFTER DELETE ON main.servers
    BEGIN INSERT OR IGNORE INTO discover_changed (id) VALUES (OLD.id); END;`;

export class SqliteDiscover implements Discover {
  readonly list: DiscoverList;
  private readonly dataVersion: Statement<[], number>;
  private readonly changedIds: Statement<[], string>;
  private readonly clearChanged: Statement<[]>;
  private readonly allActive: Statement<[], DiscoverRow>;
  private readonly oneActive: Statement<[string], DiscoverRow>;
  private readonly joined: Statement<[string], string>;
  private readonly guilds: Statement<[string], string>;
  private readonly profile: Statement<[string], { discordId: string; locale: string | null }>;
  private dataVersionSeen = -1;

  /**
   * `writer`: the store's writer connection (its TEMP triggers see this process's writes, its
   * data_version the others'); `reader`: the store's read connection (the writer for an in-memory
   * database).
   */
  constructor(writer: Connection, reader: Connection, cdnUrl: string) {
    this.list = new DiscoverList(cdnUrl);
    writer.exec(VERSION_SETUP);
    this.dataVersion = writer.prepare<[], number>('PRAGMA main.data_version').pluck();
    this.changedIds = writer.prepare<[], string>('SELECT id FROM temp.discover_changed').pluck();
    this.clearChanged = writer.prepare('DELETE FROM temp.discover_changed');
    this.allActive = writer.prepare<[], DiscoverRow>(ALL_ACTIVE_SQL);
    this.oneActive = writer.prepare<[string], DiscoverRow>(ONE_ACTIVE_SQL);
    this.joined = reader.prepare<[string], string>(JOINED_SQL).pluck();
    this.guilds = reader.prepare<[string], string>(GUILDS_SQL).pluck();
    this.profile = reader.prepare<[string], { discordId: string; locale: string | null }>(
      'SELECT discord_id AS discordId, locale FROM users WHERE id = ?',
    );
  }

  current(): void {
    const dataVersion = this.dataVersion.get() ?? 0;
    const changed = this.changedIds.all();
    if (changed.length > 0) this.clearChanged.run();
    if (dataVersion !== this.dataVersionSeen) {
      this.dataVersionSeen = dataVersion;
      this.list.replaceAll(this.allActive.all());
    } else {
      for (const id of changed) this.list.update(id, this.oneActive.get(id));
    }
  }

  /** Every read already sees every commit (current() asks the database). */
  async settled(): Promise<void> {
    this.current();
  }

  page(query: DiscoverQuery): DiscoverPage {
    this.current();
    const guildIds = this.guilds.get(query.userId);
    const joined = new Set(this.joined.all(query.userId));
    return this.list.page(
      query,
      guildIds ? this.list.hiddenFor(joined, parseGuildIds(guildIds), query.userId) : joined,
      this.viewer(query.userId, query.now),
    );
  }

  featured(userId: string, q?: string, now?: number): Buffer {
    this.current();
    return this.list.featured(userId, q, this.viewer(userId, now));
  }

  /** The member's profile, read only while some listed campaign has targeting. */
  private viewer(userId: string, now: number | undefined): DiscoverViewer | undefined {
    if (!this.list.hasTargeting) return undefined;
    return viewerOf(this.profile.get(userId), now ?? Date.now());
  }

  async close(): Promise<void> {
    // The TEMP table and triggers live as long as the connection; nothing to stop.
  }
}
