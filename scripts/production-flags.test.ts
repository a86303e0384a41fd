import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, it } from 'vitest';

// `npm start` and pm2's process file must run the compiled server with the same node flags (the V8
// heap limits the memory goal depends on, docs/performance.md), and the bench measures with them.

const root = path.resolve(import.meta.dirname, '..');

it('npm start and ecosystem.config.cjs run dist/server/main.js with the same node flags', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const start = /node (.*)dist\/server\/main\.js/.exec(pkg.scripts.start ?? '');
  expect(start, 'npm start runs node … dist/server/main.js').not.toBeNull();
  const ecosystem = createRequire(import.meta.url)(path.join(root, 'ecosystem.config.cjs')) as {
    apps: { script: string; node_args: string }[];
  };
  const app = ecosystem.apps[0]!;
  expect(app.script).toBe('dist/server/main.js');
  expect(start![1]!.trim().split(/\s+/)).toEqual(app.node_args.split(/\s+/));
  expect(app.node_args).toMatch(/--max-old-space-size=\d+/);
});
