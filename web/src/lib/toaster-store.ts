import { createToaster } from '@chakra-ui/react';

// The toast store, apart from the lazily loaded view (toaster-view.tsx), which reads it: no import cycle.
// Spec §9: one toast at a time, 5 s display, removal delay 1000000 ms, hotkey F8.
export const toaster = createToaster({
  placement: 'bottom-end',
  max: 1,
  duration: 5000,
  removeDelay: 1_000_000,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
});
