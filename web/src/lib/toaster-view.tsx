import { Toaster as ChakraToaster, Portal, Stack, Toast } from '@chakra-ui/react';
import { useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BOTTOM_BAR_HEIGHT } from '../layout/bottom-bar-height.ts';
import { toaster } from './toaster-store.ts';

/** Product spec (docs/spec/product-spec.md) §9: a toast swiped at least this far to the right is dismissed. */
const SWIPE_THRESHOLD_PX = 50;

interface ToastItem {
  id?: string | undefined;
  type?: string | undefined;
  title?: ReactNode;
  description?: ReactNode;
  action?: { label: string } | undefined;
}

/** One toast; follows a rightward drag and dismisses itself past the swipe threshold. */
function ToastView({ item }: { item: ToastItem }) {
  const { t } = useTranslation();
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  const end = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current === null) return;
    const distance = e.clientX - start.current;
    start.current = null;
    setOffset(0);
    if (distance >= SWIPE_THRESHOLD_PX) toaster.dismiss(item.id);
  };

  return (
    <Toast.Root
      width={{ md: 'sm' }}
      borderWidth="1px"
      borderColor={
        item.type === 'error' ? 'red.500' : item.type === 'success' ? 'green.500' : 'border.emphasized'
      }
      touchAction="pan-y"
      style={offset > 0 ? { transform: `translateX(${offset}px)` } : undefined}
      onPointerDown={(e) => {
        if (e.button === 0) start.current = e.clientX;
      }}
      onPointerMove={(e) => {
        if (start.current !== null) setOffset(Math.max(0, e.clientX - start.current));
      }}
      onPointerUp={end}
      onPointerLeave={end}
      onPointerCancel={() => {
        start.current = null;
        setOffset(0);
      }}
    >
      {(item.type === 'error' || item.type === 'success') && <Toast.Indicator />}
      <Stack gap="1" flex="1" maxWidth="100%">
        {item.title && <Toast.Title>{item.title}</Toast.Title>}
        {item.description && <Toast.Description>{item.description}</Toast.Description>}
      </Stack>
      {item.action && (
        <Toast.ActionTrigger flexShrink={0} alignSelf="center">
          {item.action.label}
        </Toast.ActionTrigger>
      )}
      <Toast.CloseTrigger aria-label={t('common.closeNotification')} />
    </Toast.Root>
  );
}

/**
 * The spec's removal delay keeps a dismissed toast (and zag's hover-keeping "ghost" elements, which turn
 * `pointer-events: auto` once the toast is hidden) mounted for 1,000,000 ms. None of that may catch a
 * tap: the region itself never takes pointer events, only an open toast does; a closed toast and every
 * ghost are inert. On a phone the region sits above the bottom tab bar (its height plus the safe area).
 */
const inertWhenClosed = {
  pointerEvents: 'none !important',
  '--toast-offset-bottom': {
    // Chakra's size scale: "16" is 4rem.
    base: `calc(${Number(BOTTOM_BAR_HEIGHT) / 4}rem + 0.75rem + env(safe-area-inset-bottom, 0px))`,
    md: '1rem',
  },
  '& [data-ghost]': { pointerEvents: 'none !important', display: 'none' },
  // Hidden (out of the accessibility tree too) once its 400 ms exit animation has played.
  '& [data-part=root][data-state=closed]': {
    pointerEvents: 'none !important',
    visibility: 'hidden',
    transition: 'translate 400ms, scale 400ms, opacity 200ms, visibility 0s linear 400ms',
  },
  '& [data-part=root][data-state=open]': { pointerEvents: 'auto' },
} as const;

/** The toast region for `toaster` (loaded lazily by `Toaster`). */
export default function ToasterView() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }} css={inertWhenClosed}>
        {(item) => <ToastView key={item.id} item={item} />}
      </ChakraToaster>
    </Portal>
  );
}
