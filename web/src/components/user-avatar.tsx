import { Avatar } from '@chakra-ui/react';

export interface UserAvatarProps {
  username: string;
  avatarUrl: string | null;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}

/** Discord avatar with the username's initial as fallback. */
export function UserAvatar({ username, avatarUrl, size = 'sm' }: UserAvatarProps) {
  return (
    <Avatar.Root size={size} bg="brand.solid" color="white" flexShrink={0}>
      <Avatar.Fallback fontWeight="bold">{username.charAt(0).toUpperCase() || '?'}</Avatar.Fallback>
      {avatarUrl ? <Avatar.Image src={avatarUrl} alt="" /> : null}
    </Avatar.Root>
  );
}
