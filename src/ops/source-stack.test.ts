import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, expect, it } from 'vitest';
import { sourceMappedStack } from './source-stack.ts';

// Production runs without --enable-source-maps (decision 049, session 16): the logger maps the frames of
// the compiled server to src/ itself. A module compiled as tsc builds dist/server (a .js beside its .js.map)
// throws; its stack as logged must name the TypeScript line, not the compiled one.

const dir = mkdtempSync(path.join(tmpdir(), 'source-stack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOURCE = [
  'interface Order {',
  '  id: number;',
  '}',
  '',
  'export function settle(order: Order): never {',
  '  const label: string = `order ${order.id}`;',
  '  throw new Error(`cannot settle ${label}`);', // line 7, column 9
  '}',
  '',
].join('\n');

function thrownByCompiledModule(): { stack: string; js: string } {
  const out = ts.transpileModule(SOURCE, {
    fileName: 'settle.ts',
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: true },
  });
  const src = path.join(dir, 'src');
  const dist = path.join(dir, 'dist', 'server');
  for (const d of [src, dist]) mkdirSync(d, { recursive: true });
  const js = path.join(dist, 'settle.js');
  const map = JSON.parse(out.sourceMapText!) as { sources: string[] };
  map.sources = ['../../src/settle.ts'];
  writeFileSync(js, out.outputText);
  writeFileSync(`${js}.map`, JSON.stringify(map));
  // A plain node, as production runs it (vitest maps the stacks of modules it imports by itself).
  const run = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { settle } from ${JSON.stringify(pathToFileURL(js).href)};
       try { settle({ id: 7 }); } catch (err) { process.stdout.write(err.stack); }`,
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH } },
  );
  expect(run.stdout).toContain('cannot settle order 7');
  return { stack: run.stdout, js };
}

it('maps a compiled server frame to its TypeScript line and leaves other frames as they were', () => {
  const { stack, js } = thrownByCompiledModule();
  // Node without --enable-source-maps: the raw stack names the compiled file.
  expect(stack).toContain(`${pathToFileURL(js).href}:`);

  const mapped = sourceMappedStack(stack, path.join(dir, 'dist', 'server'));
  expect(mapped).toContain(`${path.join(dir, 'src', 'settle.ts')}:7:9`);
  expect(mapped).not.toContain('settle.js');
  // Node's own frames (the -e script) are outside the compiled server: untouched.
  const evalFrame = stack.split('\n').find((l) => l.includes('[eval'));
  expect(evalFrame).toBeDefined();
  expect(mapped).toContain(evalFrame!);

  // A root the file is not under maps nothing.
  expect(sourceMappedStack(stack, path.join(dir, 'elsewhere'))).toBe(stack);
});

it('a compiled file without a map keeps its frame', () => {
  const file = path.join(dir, 'dist', 'server', 'no-map.js');
  writeFileSync(file, 'export {};\n');
  const stack = `Error: x\n    at run (${pathToFileURL(file).href}:1:1)`;
  expect(sourceMappedStack(stack, path.join(dir, 'dist', 'server'))).toBe(stack);
});
