#!/usr/bin/env node
// Runs an operator command (src/cli/<name>.ts): through tsx where it is installed (development: always
// the current source), otherwise the compiled copy from `npm run build` (dist/server/cli/<name>.js) —
// production installs without dev dependencies (`npm ci --omit=dev`) have no TypeScript loader.
// CLI_COMPILED=1 picks the compiled copy even where tsx is installed (the production-mode test).
//   node scripts/cli.mjs backup|restore|tasks|ops [args...]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z-]+$/.test(name) || !existsSync(path.join(root, 'src/cli', `${name}.ts`))) {
  console.error(
    `Unknown command ${JSON.stringify(name ?? '')}: expected one of backup, restore, tasks, ops.`,
  );
  process.exit(2);
}

function hasTsx() {
  try {
    createRequire(path.join(root, 'package.json')).resolve('tsx');
    return true;
  } catch {
    return false;
  }
}

const compiled = path.join(root, 'dist/server/cli', `${name}.js`);
let nodeArgs;
if (process.env.CLI_COMPILED !== '1' && hasTsx())
  nodeArgs = ['--import', 'tsx', path.join(root, 'src/cli', `${name}.ts`)];
else if (existsSync(compiled)) nodeArgs = ['--enable-source-maps', compiled];
else {
  console.error(`${compiled} is missing and tsx is not installed: run \`npm run build\` first.`);
  process.exit(2);
}
const result = spawnSync(process.execPath, [...nodeArgs, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
