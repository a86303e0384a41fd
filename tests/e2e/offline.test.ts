import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, waitUntilInteractive, type E2E } from './support.ts';

// Issue 28 item 2: offline or during a restart, a tab not visited yet shows the app's own "could not be
// downloaded — Retry" state (never the browser's error page) and recovers by itself; error panels
// refetch once the live-events stream is back.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

/** Console noise of a deliberate outage: the failed requests themselves. */
const OUTAGE_NOISE =
  /Failed to load resource|ERR_INTERNET_DISCONNECTED|ERR_FAILED|status of 503|dynamically imported module while offline/;

describe('offline and restarts', () => {
  it('a tab not visited yet, tapped offline, shows Retry instead of reloading, then loads by itself', async () => {
    const { page, context, errors } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'offline_rider');
    let documentLoads = 0;
    page.on('request', (req) => {
      if (req.resourceType() === 'document') documentLoads += 1;
    });

    await context.setOffline(true);
    await page.getByTestId('bottom-bar').getByRole('link', { name: 'Dashboard' }).click();
    await page.getByText('This page could not be downloaded').waitFor();
    await page.getByText(/You seem to be offline, or CoinSync is restarting/).waitFor();
    // The app is still there (its own state, the shell around it), not the browser's error page.
    expect(documentLoads).toBe(0);
    await page.getByTestId('bottom-bar').waitFor();
    await page.getByTestId('coin-balance').waitFor();

    // Retry while still offline says so and stays.
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText(/Still no connection/).waitFor();
    expect(documentLoads).toBe(0);

    // The connection returns: the page loads without a tap.
    await context.setOffline(false);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 40_000 });
    await waitUntilInteractive(page);
    expect(await page.getByText('This page could not be downloaded').count()).toBe(0);
    expect(errors.filter((e) => !OUTAGE_NOISE.test(e))).toEqual([]);
  });

  it('while the server restarts (chunks and health fail), a new tab waits, then loads when it is back', async () => {
    const { page, context } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'restart_rider');
    let documentLoads = 0;
    page.on('request', (req) => {
      if (req.resourceType() === 'document') documentLoads += 1;
    });
    const down = /\/assets\/rewards-page-[^/]+\.js$|\/api\/health$/;
    await context.route(down, (route) => route.abort('connectionrefused'));
    await page.getByTestId('bottom-bar').getByRole('link', { name: 'Rewards' }).click();
    await page.getByText('This page could not be downloaded').waitFor();
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    expect(documentLoads).toBe(0);

    await context.unroute(down);
    await page.getByRole('heading', { level: 1, name: 'Rewards' }).waitFor({ timeout: 40_000 });
  });

  it('an error panel refetches by itself once the live-events stream reconnects after an outage', async () => {
    const { page, context } = await e2e.newPage({ width: 1280, height: 800 });
    await e2e.signIn(page, 'outage_owner');
    // The server goes away: the live-events stream drops and the campaign list cannot be fetched.
    const events = /\/api\/events/;
    const campaigns = /\/api\/campaigns$/;
    await context.route(events, (route) => route.abort('connectionrefused'));
    await context.route(campaigns, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"restarting"}' }),
    );
    await page.goto('/');
    await waitUntilInteractive(page);
    await page.getByRole('link', { name: 'My Campaigns', exact: true }).first().click();
    await page.getByTestId('error-state').waitFor();

    // The server is back: the stream reconnects by itself and the panel is replaced by the list.
    await context.unroute(campaigns);
    await context.unroute(events);
    await page.getByText("You don't have any active campaigns yet").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('error-state').count()).toBe(0);
  });
});
