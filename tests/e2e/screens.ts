// The screens the browser checks visit (axe-core: a11y.test.ts, a11y-data.test.ts; the screenshots of
// scripts/ui/screenshots.ts), taken from the web app's one route table (web/src/routes.ts), so a new page
// is checked and shot without a second list to keep in step.

/** What is needed here of web/src/routes.ts's AppRoute. */
interface RouteEntry {
  path: string;
  layout: 'shell' | 'bare';
}

// Loaded at run time, as scripts/build/pages.ts does: the table's lazy page imports are JSX compiled under
// web/tsconfig.json, which this tree's tsconfig does not compile (a literal import would make it try).
const ROUTES_MODULE = '../../web/src/routes.ts';
const { ROUTES } = (await import(ROUTES_MODULE)) as { ROUTES: readonly RouteEntry[] };
// Without a type check of the import, an empty list would pass every check that loops over it.
if (!ROUTES.some((route) => route.layout === 'shell'))
  throw new Error(`${ROUTES_MODULE}: no ROUTES with signed-in pages`);

/** Shown to everyone: the login page at / and the pages outside the shell (terms, privacy). */
export const SIGNED_OUT_SCREENS: readonly string[] = [
  '/',
  ...ROUTES.filter((route) => route.layout === 'bare').map((route) => route.path),
];

/**
 * Every page of the signed-in shell, then a path no route has (the 404 page). /checkout is visited
 * without a query, as before; a11y-support.ts's visitScreen gives it its own wait.
 */
export const SIGNED_IN_SCREENS: readonly string[] = [
  ...ROUTES.filter((route) => route.layout === 'shell').map((route) => route.path),
  '/no-such-page',
];
