import { chakra, type HTMLChakraProps } from '@chakra-ui/react';
import { useId } from 'react';

/** A small gold coin drawn in SVG; decorative (aria-hidden). */
export function CoinIcon(props: HTMLChakraProps<'svg'>) {
  const gradientId = useId();
  return (
    <chakra.svg
      viewBox="0 0 24 24"
      boxSize="1.1em"
      flexShrink={0}
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0%" stopColor="#ffe08a" />
          <stop offset="55%" stopColor="#f0b232" />
          <stop offset="100%" stopColor="#c98a12" />
        </linearGradient>
      </defs>
      <circle cx="12" cy="12" r="11" fill={`url(#${gradientId})`} />
      <circle cx="12" cy="12" r="8" fill="none" stroke="#a8700c" strokeOpacity="0.55" strokeWidth="1.4" />
      <path
        d="M14.6 9.2a3.4 3.4 0 1 0 0 5.6"
        fill="none"
        stroke="#7a4c0e"
        strokeWidth="1.9"
        strokeLinecap="round"
      />
    </chakra.svg>
  );
}
