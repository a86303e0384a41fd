import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import rule from './no-import-cycle.js';

// The lint rule that keeps import cycles out of the server and the web app (decision 060, Session 17):
// a small project on disk, linted with its TypeScript program, as eslint.config.js lints ours.

const FILES: Record<string, string> = {
  // a → b → c → a: every import of the ring is in the cycle.
  'a.ts': `import { b } from './b.ts';\nexport const a = (): number => b() + 1;\n`,
  'b.ts': `import { c } from './c.ts';\nexport const b = (): number => c();\n`,
  'c.ts': `import { a } from './a.ts';\nexport const c = (): number => (typeof a === 'function' ? 2 : 3);\n`,
  // Type-only imports load nothing: no cycle.
  't1.ts': `import type { T2 } from './t2.ts';\nexport type T1 = { t: T2 | null };\nexport const one = 1;\n`,
  't2.ts': `import { type T1, one } from './t1.ts';\nexport type T2 = { t: T1 | null; n: typeof one };\n`,
  't3.ts': `import { type T4 } from './t4.ts';\nexport type T3 = T4;\nexport const three = 3;\n`,
  't4.ts': `export type { T3 } from './t3.ts';\nexport type T4 = number;\n`,
  // A dynamic import loads its module too; a re-export and a bare import as well.
  'd1.ts': `export async function load(): Promise<number> {\n  const m = await import('./d2.ts');\n  return m.d2;\n}\n`,
  'd2.ts': `export { load } from './d1.ts';\nexport const d2 = 2;\n`,
  'e1.ts': `import './e2.ts';\nexport const e1 = 1;\n`,
  'e2.ts': `export * from './e1.ts';\n`,
  // Imports that lead nowhere back.
  'leaf.ts': `import { a } from './a.ts';\nimport { p } from 'pkg';\nexport const leaf = [a, p];\n`,
  'node_modules/pkg/package.json': JSON.stringify({ name: 'pkg', types: 'index.d.ts' }),
  'node_modules/pkg/index.d.ts': `export declare const p: number;\n`,
  // No standard library: the rule needs the import graph, not the types (and the test stays quick).
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      noLib: true,
      types: [],
      noEmit: true,
      allowImportingTsExtensions: true,
    },
    include: ['*.ts'],
  }),
};

let dir = '';
let reported: Record<string, string[]> = {};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'no-import-cycle-'));
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: {
          parser: tseslint.parser,
          parserOptions: { project: './tsconfig.json', tsconfigRootDir: dir },
        },
        plugins: { coinsync: { rules: { 'no-import-cycle': rule } } },
        rules: { 'coinsync/no-import-cycle': 'error' },
      },
    ],
  });
  const results = await eslint.lintFiles(['*.ts']);
  reported = Object.fromEntries(
    results.map((r) => [
      path.basename(r.filePath),
      r.messages.map((m) => `${m.line}: ${m.ruleId ?? 'fatal'} ${m.message}`),
    ]),
  );
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('coinsync/no-import-cycle', () => {
  it('reports every import of a ring, with the way back', () => {
    expect(reported['a.ts']).toEqual([
      '1: coinsync/no-import-cycle Dependency cycle: "./b.ts" leads back here (./b.ts → ./c.ts → ./a.ts).',
    ]);
    expect(reported['b.ts']).toHaveLength(1);
    expect(reported['c.ts']).toEqual([
      '1: coinsync/no-import-cycle Dependency cycle: "./a.ts" leads back here (./a.ts → ./b.ts → ./c.ts).',
    ]);
  });

  it('counts dynamic imports, re-exports and bare imports', () => {
    expect(reported['d1.ts']).toEqual([
      '2: coinsync/no-import-cycle Dependency cycle: "./d2.ts" leads back here (./d2.ts → ./d1.ts).',
    ]);
    expect(reported['d2.ts']).toHaveLength(1);
    expect(reported['e1.ts']).toHaveLength(1);
    expect(reported['e2.ts']).toHaveLength(1);
  });

  it('leaves type-only imports, packages and imports that lead nowhere back alone', () => {
    for (const name of ['t1.ts', 't2.ts', 't3.ts', 't4.ts', 'leaf.ts']) expect(reported[name]).toEqual([]);
  });
});
