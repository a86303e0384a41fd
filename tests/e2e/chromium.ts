// Debian's Chromium as every browser run here starts it: the browser tests (support.ts), the screenshot and
// command-console scripts (scripts/ui) and the Lighthouse run (scripts/lighthouse.ts).

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
