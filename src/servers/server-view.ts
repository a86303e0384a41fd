import type { ApiServer } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';
import type { Campaign } from '../db/schema.ts';
import { guildIconUrl } from '../discord/discord-api.ts';

/** The wire shape of a server / campaign row (docs/spec/product-spec.md §3). */
export function toApiServer(server: Campaign, cdnUrl: string): ApiServer {
  return {
    id: server.id,
    ownerId: server.ownerId,
    name: server.name,
    inviteLink: server.inviteLink,
    kind: server.kind,
    serverId: server.guildId,
    serverIcon: server.guildIcon,
    iconUrl: guildIconUrl(cdnUrl, server.guildId, server.guildIcon),
    coinReward: formatCents(server.coinReward),
    membersRemaining: server.membersRemaining,
    initialMemberSlots: server.initialMemberSlots,
    isFeatured: server.isFeatured,
    completionNotificationSent: server.completionNotificationSent,
    createdAt: new Date(server.createdAt).toISOString(),
    targeting: { minAccountAgeDays: server.minAccountAgeDays, language: server.targetLanguage },
  };
}
