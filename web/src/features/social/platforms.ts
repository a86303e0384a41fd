import type { IconType } from 'react-icons';
import { FaDiscord, FaInstagram, FaTiktok, FaXTwitter, FaYoutube } from 'react-icons/fa6';
import { LuShare2 } from 'react-icons/lu';

export interface PlatformStyle {
  name: string;
  icon: IconType;
  /** Brand colour for the icon tile. */
  color: string;
  /** Soft background behind the icon. */
  tint: string;
}

const PLATFORMS: Record<string, PlatformStyle> = {
  youtube: { name: 'YouTube', icon: FaYoutube, color: '#ff3b3b', tint: 'rgba(255,0,0,0.14)' },
  discord: { name: 'Discord', icon: FaDiscord, color: '#7b86f5', tint: 'rgba(88,101,242,0.18)' },
  tiktok: { name: 'TikTok', icon: FaTiktok, color: '#25f4ee', tint: 'rgba(37,244,238,0.12)' },
  instagram: { name: 'Instagram', icon: FaInstagram, color: '#f56fa1', tint: 'rgba(225,48,108,0.16)' },
  twitter: { name: 'Twitter', icon: FaXTwitter, color: '#e7e9ea', tint: 'rgba(231,233,234,0.1)' },
};

export function platformStyle(platform: string): PlatformStyle {
  return (
    PLATFORMS[platform] ?? { name: platform, icon: LuShare2, color: '#9ea6f8', tint: 'rgba(88,101,242,0.14)' }
  );
}
