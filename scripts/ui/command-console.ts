// Screenshots of the Discord simulator's command console (issue 17): a member runs /farm on a guild
// page and presses Join. Desktop (1280) and phone (390).
// Usage: start the app in demo mode on a port, then
//   node --import tsx scripts/ui/command-console.ts http://127.0.0.1:5104 out-dir [guildId] [username] [server to join]
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/e2e/chromium.ts';
import { TestClient, signInThroughSimulator } from '../../src/test/harness.ts';

const [
  base = 'http://127.0.0.1:5000',
  outDir = 'screenshots',
  guildId = '200000000000000002',
  username = 'sam',
  joinName = 'Anime Haven',
] = process.argv.slice(2);

mkdirSync(outDir, { recursive: true });
// The member needs a website account (the same Discord account): sign in once through the simulator.
await signInThroughSimulator(new TestClient(base), username);

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(`${base}/discord-sim/guilds/${guildId}`);
    await page.getByLabel('Run as').selectOption({ label: username });
    await page.getByLabel('Message #general').fill('/farm');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/#console$/);
    await page.screenshot({ path: path.join(outDir, `console-farm-${width}.png`), fullPage: true });
    if (width === 1280) {
      const join = page.getByRole('button', { name: new RegExp(`^Join \\d+\\. ${joinName}`) }).last();
      await join.click();
      await page.waitForURL(/#console$/);
      await page.getByLabel('Message #general').fill('/coins');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForURL(/#console$/);
      await page.screenshot({ path: path.join(outDir, `console-join-${width}.png`), fullPage: true });
    }
    await context.close();
  }
} finally {
  await browser.close();
}
