import type { ApiServer } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';
import type { Campaign } from '../db/schema.ts';
import { guildIconUrl } from '../discord/discord-api.ts';

/** The wire shape of a server / campaign row (docs/spec/product-spec.md §3). */
export function toApiServer(campaign: Campaign, cdnUrl: string): ApiServer {
  return {
    id: campaign.id,
    ownerId: campaign.ownerId,
    name: campaign.name,
    inviteLink: campaign.inviteLink,
    kind: campaign.kind,
    serverId: campaign.guildId,
    serverIcon: campaign.guildIcon,
    iconUrl: guildIconUrl(cdnUrl, campaign.guildId, campaign.guildIcon),
    coinReward: formatCents(campaign.coinReward),
    membersRemaining: campaign.membersRemaining,
    initialMemberSlots: campaign.initialMemberSlots,
    isFeatured: campaign.isFeatured,
    completionNotificationSent: campaign.completionNotificationSent,
    createdAt: new Date(campaign.createdAt).toISOString(),
    targeting: { minAccountAgeDays: campaign.minAccountAgeDays, language: campaign.targetLanguage },
  };
}
