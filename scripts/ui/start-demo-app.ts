// Starts the product from the sources in demo mode with a throwaway SQLite database, for the scripts that
// measure pages in a browser (npm run lighthouse, npm run timing:main-action); resolves once it is healthy.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export async function startDemoApp(
  port: number,
  waitSeconds = 60,
): Promise<{ url: string; child: ChildProcess }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-demo-app-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_PATH: path.join(dir, 'db.sqlite'),
      NODE_ENV: 'development',
    },
    stdio: 'ignore',
  });
  const url = `http://localhost:${port}`;
  for (let i = 0; i < waitSeconds * 2; i += 1) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error('app did not start');
}
