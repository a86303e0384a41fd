// Zod 4 compiles object parsers with `new Function` unless told not to, and probes for it when a schema
// is built; our Content-Security-Policy forbids eval, so the probe logs a CSP violation (Lighthouse's
// "Issues" audit, best practices on every page that loads a schema). Zod reads its settings from
// globalThis.__zod_globalConfig (what `z.config()` writes); setting `jitless` here, first thing in the
// entry, covers every schema module the lazy chunks load later, without putting zod in the entry bundle.
const target = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
target.__zod_globalConfig = { ...target.__zod_globalConfig, jitless: true };

export {};
