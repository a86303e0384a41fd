import type { ApiServer } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';
import type { Server } from '../db/schema.ts';
import { guildIconUrl } from '../discord/discord-api.ts';

/** The wire shape of a server / campaign row (docs/spec/product-spec.md §3). */
export function toApiServer(server: Server, cdnUrl: string): ApiServer {
  return {
    id: server.id,
    ownerId: server.ownerId,
    name: server.name,
    inviteLink: server.inviteLink,
    kind: server.kind,
    serverId: server.serverId,
    serverIcon: server.serverIcon,
    iconUrl: guildIconUrl(cdnUrl, server.serverId, server.serverIcon),
    coinReward: formatCents(server.coinReward),
    membersRemaining: server.membersRemaining,
    initialMemberSlots: server.initialMemberSlots,
    isFeatured: server.isFeatured,
    completionNotificationSent: server.completionNotificationSent,
    createdAt: new Date(server.createdAt).toISOString(),
    targeting: { minAccountAgeDays: server.minAccountAgeDays, language: server.targetLanguage },
  };
}
