import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, insertJoin, insertUser } from '../test/factories.ts';
import type { ApiCampaignQuality, ApiQualityOverview } from '../shared/quality.ts';
import { qualityRepo } from './quality-repo.ts';
import { RETENTION_SAMPLE, sampleRetention } from './retention-sampler.ts';

// Issue 31 item 1: campaign quality from the product's own records (verifications, leaves and their
// reasons) and sampled bot membership checks at D+7 / D+30 through the simulator's
// GET /guilds/{g}/members/{u}; on the engine the suite runs on (the PostgreSQL step runs it again).

const DAY = 86_400_000;
let app: TestApp;
let owner: TestClient;
let stranger: TestClient;
let seq = 0;

/** A Discord id whose snowflake says the account was created `ageDays` before `at`. */
function snowflakeAged(at: number, ageDays: number): string {
  seq += 1;
  return String((BigInt(at - ageDays * DAY - 1_420_070_400_000) << 22n) + BigInt(seq));
}

beforeAll(async () => {
  app = await startTestApp();
  owner = await app.signIn('quality_owner');
  stranger = await app.signIn('quality_stranger');
});
afterAll(() => app.close());

interface MemberSpec {
  ageDays: number;
  verifiedDaysAgo: number;
  left?: { daysAfter: number; reason: 'leave' | 'kick' | 'ban' };
  penalized?: boolean;
}

async function campaignWith(name: string, guildId: string, specs: MemberSpec[]) {
  const now = app.clock.now();
  const campaign = await insertCampaign(app.server.ctx.store, { ownerId: owner.user!.id, name, guildId });
  const members = [];
  for (const spec of specs) {
    const verifiedAt = now - spec.verifiedDaysAgo * DAY;
    // The account's age when it was verified.
    const user = await insertUser(app.server.ctx.store, {
      discordId: snowflakeAged(verifiedAt, spec.ageDays),
    });
    const join = await insertJoin(app.server.ctx.store, {
      userId: user.id,
      campaignId: campaign.id,
      joinedAt: verifiedAt - 60_000,
      verified: true,
      verifiedAt,
      coinsAwarded: true,
      rewardCents: 50,
      minStayMs: 2 * DAY,
      penaltyCents: 200,
      hasLeft: spec.left !== undefined,
      leftAt: spec.left ? verifiedAt + spec.left.daysAfter * DAY : null,
      leftReason: spec.left?.reason ?? null,
      penalized: spec.penalized ?? false,
    });
    members.push({ user, join });
  }
  return { campaign, members };
}

describe('campaign quality', () => {
  it('retention at D+1, end of stay, D+7 and D+30, removals by reason, account ages and cost per retained member', async () => {
    const { campaign } = await campaignWith('Quality Club', '990000000000000001', [
      { ageDays: 10, verifiedDaysAgo: 40 }, // stays
      { ageDays: 60, verifiedDaysAgo: 40, left: { daysAfter: 0.5, reason: 'leave' }, penalized: true }, // early leave, before D+1
      { ageDays: 200, verifiedDaysAgo: 40, left: { daysAfter: 1.5, reason: 'kick' } }, // kicked after D+1, in the stay
      { ageDays: 800, verifiedDaysAgo: 40, left: { daysAfter: 10, reason: 'ban' } }, // banned after D+7
      { ageDays: 2000, verifiedDaysAgo: 40, left: { daysAfter: 3, reason: 'leave' } }, // left after the stay, before D+7
      { ageDays: 20, verifiedDaysAgo: 3 }, // counted at D+1 and end of stay only
      { ageDays: 20, verifiedDaysAgo: 0.5 }, // too new for any point
    ]);
    const res = await owner.get<ApiCampaignQuality>(`/api/campaigns/${campaign.id}/quality`);
    expect(res.status).toBe(200);
    const q = res.body;
    expect(q).toMatchObject({ campaignId: campaign.id, name: 'Quality Club', tracked: true, paidMembers: 7 });
    const point = (key: string) => q.retention.find((r) => r.key === key)!;
    expect(point('d1')).toMatchObject({ eligible: 6, retained: 5, basis: 'recorded', sampleSize: 0 });
    expect(point('endOfStay')).toMatchObject({ eligible: 6, retained: 4 });
    expect(point('d7')).toMatchObject({ eligible: 5, retained: 2, basis: 'recorded' });
    expect(point('d30')).toMatchObject({ eligible: 5, retained: 1 });
    expect(point('d30').rate).toBeCloseTo(0.2);
    expect(q.removals).toEqual({ earlyLeaves: 1, kicks: 1, bans: 1, laterLeaves: 1 });
    expect(q.accountAge).toEqual([
      { label: 'Under 30 days', members: 3 },
      { label: '30–90 days', members: 1 },
      { label: '90 days–1 year', members: 1 },
      { label: '1–3 years', members: 1 },
      { label: '3+ years', members: 1 },
    ]);
    // 6 members paid for (the early leaver's slot went back) over 4 still there at the end of the stay.
    expect(q.costPerRetained).toBe('1.50');

    const overview = await owner.get<ApiQualityOverview>('/api/campaigns/quality');
    expect(overview.status).toBe(200);
    expect(overview.body.campaigns.map((c) => c.campaignId)).toContain(campaign.id);
    expect(overview.body.summary.paidMembers).toBeGreaterThanOrEqual(7);
  });

  it('is the owner’s only: 404 for another owner, 401 signed out, 400 for a bad id', async () => {
    const { campaign } = await campaignWith('Private Figures', '990000000000000002', [
      { ageDays: 100, verifiedDaysAgo: 2 },
    ]);
    expect((await stranger.get(`/api/campaigns/${campaign.id}/quality`)).status).toBe(404);
    expect((await stranger.get(`/api/campaigns/${campaign.id}/quality.csv`)).status).toBe(404);
    expect((await app.anonymous().get(`/api/campaigns/${campaign.id}/quality`)).status).toBe(401);
    const stranger_overview = await stranger.get<ApiQualityOverview>('/api/campaigns/quality');
    expect(stranger_overview.body.campaigns).toEqual([]);
    expect(stranger_overview.body.summary.paidMembers).toBe(0);
    expect((await owner.get(`/api/campaigns/${'x'.repeat(65)}/quality`)).status).toBe(400);
  });

  it('exports one anonymous CSV row per paid member', async () => {
    const { campaign, members } = await campaignWith('Export Me', '990000000000000003', [
      { ageDays: 45, verifiedDaysAgo: 10 },
      { ageDays: 400, verifiedDaysAgo: 10, left: { daysAfter: 1, reason: 'leave' }, penalized: true },
    ]);
    const res = await fetch(`${app.url}/api/campaigns/${campaign.id}/quality.csv`, {
      headers: { cookie: owner.cookieHeader },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toBe(
      'member,verified_at,account_age_days,status,left_at,left_reason,days_stayed,early_leave,check_d7,check_d30',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^1,[^,]+,45,in server,,,,no,,$/);
    expect(lines[2]).toMatch(/^2,[^,]+,400,left,[^,]+,leave,1\.0,yes,,$/);
    // No Discord ids in the export.
    for (const m of members) expect(lines.join('\n')).not.toContain(m.user.discordId);
  });

  it('samples membership at D+7 through the bot, bounded per campaign, and estimates retention from it', async () => {
    const s = app.sim.state;
    const guild = s.createGuild({ name: 'Sampled Guild', ownerId: owner.user!.discordId });
    const specs: MemberSpec[] = Array.from({ length: RETENTION_SAMPLE.perCampaign + 5 }, () => ({
      ageDays: 300,
      verifiedDaysAgo: 8,
    }));
    const { campaign, members } = await campaignWith('Sampled Club', guild.id, specs);
    // Three in four are still in the guild (the simulator knows them by their Discord ids).
    members.forEach(({ user }, i) => {
      s.createUser({ id: user.discordId, username: `sampled_${i}` });
      if (i % 4 !== 0) s.addMember(guild.id, user.discordId);
    });

    const first = await sampleRetention(app.server.ctx);
    expect(first.checked).toBe(RETENTION_SAMPLE.perCampaign);
    expect(first.present + first.absent).toBe(RETENTION_SAMPLE.perCampaign);
    // The campaign's sample is full: a second run looks nobody up.
    expect((await sampleRetention(app.server.ctx)).checked).toBe(0);
    expect(await qualityRepo(app.server.ctx.store.read).checkCount()).toBeGreaterThanOrEqual(
      RETENTION_SAMPLE.perCampaign,
    );

    const q = (await owner.get<ApiCampaignQuality>(`/api/campaigns/${campaign.id}/quality`)).body;
    const d7 = q.retention.find((r) => r.key === 'd7')!;
    expect(d7.basis).toBe('sampled');
    expect(d7.sampleSize).toBe(RETENTION_SAMPLE.perCampaign);
    expect(d7.eligible).toBe(specs.length);
    expect(d7.retained).toBe(Math.round((specs.length * first.present) / RETENTION_SAMPLE.perCampaign));
    expect(d7.retained).toBeLessThan(specs.length);
  });
});
