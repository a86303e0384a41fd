import { Toaster as ChakraToaster, Portal, Stack, Toast } from '@chakra-ui/react';
import { useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { toaster } from './toaster-store.ts';

/** Spec §9: a toast swiped at least this far to the right is dismissed. */
const SWIPE_THRESHOLD_PX = 50;

interface ToastItem {
  id?: string | undefined;
  type?: string | undefined;
  title?: ReactNode;
  description?: ReactNode;
  action?: { label: string } | undefined;
}

/** One toast; follows a rightward drag and dismisses itself past the swipe threshold. */
function ToastView({ t }: { t: ToastItem }) {
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  const end = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current === null) return;
    const distance = e.clientX - start.current;
    start.current = null;
    setOffset(0);
    if (distance >= SWIPE_THRESHOLD_PX) toaster.dismiss(t.id);
  };

  return (
    <Toast.Root
      width={{ md: 'sm' }}
      borderWidth="1px"
      borderColor={t.type === 'error' ? 'red.500' : 'border.emphasized'}
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
      {t.type === 'error' && <Toast.Indicator />}
      <Stack gap="1" flex="1" maxWidth="100%">
        {t.title && <Toast.Title>{t.title}</Toast.Title>}
        {t.description && <Toast.Description>{t.description}</Toast.Description>}
      </Stack>
      {t.action && (
        <Toast.ActionTrigger flexShrink={0} alignSelf="center">
          {t.action.label}
        </Toast.ActionTrigger>
      )}
      <Toast.CloseTrigger aria-label="Close notification" />
    </Toast.Root>
  );
}

/** The toast region for `toaster` (loaded lazily by `Toaster`). */
export default function ToasterView() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(t) => <ToastView key={t.id} t={t} />}
      </ChakraToaster>
    </Portal>
  );
}
