#!/usr/bin/env node
// One TypeScript project's typecheck and lint in one process on one TypeScript program:
// `node scripts/check-project.mjs server|web [--no-cache]`, for `npm run check` (scripts/check.mjs) and, with
// --no-cache (every file linted again, as `eslint .` without --cache), for `npm test` (scripts/test.mjs).
// Run apart (`npm run typecheck`, then `eslint`), the project is parsed, bound and type-checked twice: once
// by tsc, once more by typescript-eslint's project service for the type-aware rules. Here tsc's work is
// done once through TypeScript's API (the same incremental build info as `npm run typecheck`), and ESLint
// lints with that very program, so the type-aware rules read types the checker has already computed.
// What each half reports is what `tsc -p <tsconfig> --noEmit --incremental` and `eslint <targets>` report
// (decision 060, "npm run check from cold", and its Session 15 section for `npm test`).
import path from 'node:path';
import { ESLint } from 'eslint';
import * as tsParser from '@typescript-eslint/parser';
import ts from 'typescript';

/** The two projects: the server's (everything but web/) and the web app's. */
const PROJECTS = {
  server: {
    tsconfig: 'tsconfig.json',
    buildInfo: 'node_modules/.cache/tsc/server.tsbuildinfo',
    lint: ['.'],
    ignore: ['web/**'],
  },
  web: {
    tsconfig: 'web/tsconfig.json',
    buildInfo: 'node_modules/.cache/tsc/web.tsbuildinfo',
    lint: ['web'],
    ignore: [],
  },
};

const [name, ...flags] = process.argv.slice(2);
const project = PROJECTS[name];
if (!project || flags.some((f) => f !== '--no-cache')) {
  console.error(`usage: check-project.mjs ${Object.keys(PROJECTS).join('|')} [--no-cache]`);
  process.exit(2);
}
/**
 * ESLint's cache by content (`npm run check`): a file whose text and config are unchanged is not linted
 * again. The type-aware rules read other files' types, which the cache does not track, so a changed type
 * can leave another file's cached result stale: `npm test` and CI pass --no-cache.
 */
const eslintCache = !flags.includes('--no-cache');

/** `tsc -p <tsconfig> --noEmit --incremental --tsBuildInfoFile <buildInfo>`, as tsc's own CLI runs it. */
function typecheck() {
  const formatHost = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: ts.sys.getCurrentDirectory,
    getNewLine: () => ts.sys.newLine,
  };
  let configError;
  const parsed = ts.getParsedCommandLineOfConfigFile(
    project.tsconfig,
    { noEmit: true, incremental: true, tsBuildInfoFile: project.buildInfo },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => (configError = d) },
  );
  if (!parsed)
    return { program: undefined, text: ts.formatDiagnostics([configError], formatHost), ok: false };
  const builder = ts.createIncrementalProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
    projectReferences: parsed.projectReferences,
    host: ts.createIncrementalCompilerHost(parsed.options, ts.sys),
  });
  // The order and the early stops of tsc's emitFilesAndReportErrors.
  const all = [...builder.getConfigFileParsingDiagnostics()];
  const configCount = all.length;
  all.push(...builder.getSyntacticDiagnostics());
  if (all.length === configCount) {
    all.push(...builder.getOptionsDiagnostics(), ...builder.getGlobalDiagnostics());
    if (all.length === configCount) all.push(...builder.getSemanticDiagnostics());
  }
  // With noEmit this writes only the build info, for the next run.
  all.push(...builder.emit().diagnostics);
  const diagnostics = ts.sortAndDeduplicateDiagnostics(all);
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  const text =
    ts.formatDiagnostics(diagnostics, formatHost) +
    (errors ? `\nFound ${errors} error${errors === 1 ? '' : 's'} (tsc -p ${project.tsconfig}).\n` : '');
  return { program: builder.getProgram(), text, ok: errors === 0 };
}

/**
 * typescript-eslint's parser, handed the program above: a file of the project gets its type information
 * from it instead of from a program of the project service's own. (A parser rather than parserOptions,
 * so ESLint's cache never tries to serialise a program.)
 */
function sharedProgramParser(program) {
  return {
    meta: { name: 'coinsync-shared-program', version: `${ts.version}+${tsParser.version}` },
    parseForESLint: (code, options) =>
      tsParser.parseForESLint(code, { ...options, projectService: false, programs: [program] }),
  };
}

async function lint(program) {
  const eslint = new ESLint({
    ...(eslintCache
      ? { cache: true, cacheStrategy: 'content', cacheLocation: `node_modules/.cache/eslint/${name}.json` }
      : {}),
    ignorePatterns: project.ignore,
    // Only the type-checked TypeScript files: the config's JavaScript files (eslint.config.js, the lint
    // plugin) lint without types, as configured.
    overrideConfig: program
      ? [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: sharedProgramParser(program) } }]
      : [],
  });
  const results = await eslint.lintFiles(project.lint);
  const formatter = await eslint.loadFormatter('stylish');
  const text = await formatter.format(results);
  return { text, ok: results.every((r) => r.errorCount === 0 && r.fatalErrorCount === 0) };
}

// Each half's wall time and this process's CPU (user + system), so a loaded machine's waits are told apart.
const started = process.hrtime.bigint();
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const checked = typecheck();
const typecheckS = Number(process.hrtime.bigint() - started) / 1e9;
const typecheckCpu = cpuSeconds();
const linted = await lint(checked.program);
const lintS = Number(process.hrtime.bigint() - started) / 1e9 - typecheckS;
const lintCpu = cpuSeconds() - typecheckCpu;
const rel = (p) => path.relative(process.cwd(), p) || '.';
console.log(
  `typecheck (${rel(project.tsconfig)}): ${checked.ok ? 'ok' : 'failed'} after ${typecheckS.toFixed(1)} s` +
    ` (${typecheckCpu.toFixed(1)} s CPU)\n${checked.text.trimEnd()}`,
);
console.log(
  `lint (${project.lint.join(' ')}): ${linted.ok ? 'ok' : 'failed'} after ${lintS.toFixed(1)} s more` +
    ` (${lintCpu.toFixed(1)} s CPU)\n${linted.text.trimEnd()}`,
);
process.exit(checked.ok && linted.ok ? 0 : 1);
