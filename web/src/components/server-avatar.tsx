import { Avatar } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export interface ServerAvatarProps {
  name: string;
  /** Full icon URL (e.g. ApiServer.iconUrl) or null for the initial fallback. */
  iconUrl?: string | null;
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl' | '2xl';
}

/** Server icon with the server name's initial as fallback. */
export function ServerAvatar({ name, iconUrl, size = 'lg' }: ServerAvatarProps) {
  const initial = name.trim().charAt(0).toUpperCase() || '?';
  const { t } = useTranslation();
  return (
    <Avatar.Root size={size} shape="rounded" bg="brand.muted" color="brand.fg" flexShrink={0}>
      <Avatar.Fallback fontWeight="bold">{initial}</Avatar.Fallback>
      {iconUrl ? <Avatar.Image src={iconUrl} alt={t('common.serverIcon', { name })} /> : null}
    </Avatar.Root>
  );
}
