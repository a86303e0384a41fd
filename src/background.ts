import type { AppContext } from './context.ts';

export interface Background {
  stop(): Promise<void>;
}

/** Starts what runs beside the HTTP server: the Discord bot and periodic jobs (added by features). */
export function startBackground(_ctx: AppContext): Promise<Background> {
  return Promise.resolve({ stop: () => Promise.resolve() });
}
