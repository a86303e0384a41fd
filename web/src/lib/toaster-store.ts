import { createToaster } from '@chakra-ui/react';

// The toast store, apart from the lazily loaded view (toaster-view.tsx), which reads it: no import cycle.
// Product spec (docs/spec/product-spec.md) §9: one toast at a time, 5 s display, removal delay 1000000 ms, hotkey F8.
// The removal delay keeps a dismissed toast mounted for ~16.7 minutes: the view makes whatever it keeps
// mounted inert (no pointer events, nothing covering the page), so it can never swallow a tap.
// The bottom offset is a CSS variable the view sets per breakpoint: on a phone the toast sits above the
// bottom tab bar instead of covering it.
export const toaster = createToaster({
  placement: 'bottom-end',
  max: 1,
  duration: 5000,
  removeDelay: 1_000_000,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
  offsets: {
    top: '1rem',
    left: '1rem',
    right: '1rem',
    bottom: 'var(--toast-offset-bottom, 1rem)',
  },
});
