// The product's name and public-facing identity, kept in one place.
export const PRODUCT_NAME = 'CoinSync';

/** Fallback when /api/config has not loaded; the server's supportUrl wins. */
export const DEFAULT_SUPPORT_URL = 'https://discord.gg/';

export interface SocialLink {
  label: string;
  href: string;
  platform: 'x' | 'youtube' | 'tiktok' | 'instagram';
}

// Placeholder handles: replace with the product's real accounts before launch.
export const SOCIAL_LINKS: readonly SocialLink[] = [
  { label: 'X (Twitter)', href: 'https://x.com/coinsync', platform: 'x' },
  { label: 'YouTube', href: 'https://www.youtube.com/@coinsync', platform: 'youtube' },
  { label: 'TikTok', href: 'https://www.tiktok.com/@coinsync', platform: 'tiktok' },
  { label: 'Instagram', href: 'https://www.instagram.com/coinsync', platform: 'instagram' },
];
