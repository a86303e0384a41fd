// What a refused promotion says. The rule itself (one active featured campaign per Discord guild) is
// CampaignsRepository.isGuildFeaturedElsewhere, checked under lockGuildForFeaturing in promote-campaign.ts.

export const ALREADY_FEATURED = 'Already featured';
export const ALREADY_FEATURED_ELSEWHERE = 'Already featured (another campaign)';
