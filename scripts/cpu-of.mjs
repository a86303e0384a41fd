#!/usr/bin/env node
// Runs a command and reports the CPU it used: `node scripts/cpu-of.mjs <command> [args…]`. The command's
// output passes through untouched; once it has ended, one line `{"user":…,"system":…}` (seconds) goes to
// file descriptor 3 if the caller opened one (scripts/test.mjs does), else to stderr. The figure is this
// process's reaped children (/proc/self/stat cutime + cstime: the command and every process it waited
// for, vitest's forks and worker threads included), so steps that run side by side are told apart.
// Linux only; elsewhere the figure is null. Exits with the command's exit code.
import { spawn } from 'node:child_process';
import { fstatSync, readFileSync, writeSync } from 'node:fs';

function childrenCpu() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5) (cutime, cstime), in clock ticks (100 a second on Linux).
    return { user: Number(fields[13]) / 100, system: Number(fields[14]) / 100 };
  } catch {
    return null;
  }
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/cpu-of.mjs <command> [args…]');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['inherit', 'inherit', 'inherit'] });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('error', (err) => {
  console.error(String(err));
  process.exitCode = 127;
});
child.on('close', (code, signal) => {
  const line = `${JSON.stringify(childrenCpu())}\n`;
  let fd3 = false;
  try {
    fd3 = fstatSync(3).isFIFO() || fstatSync(3).isSocket();
  } catch {
    fd3 = false;
  }
  writeSync(fd3 ? 3 : 2, line);
  process.exitCode = process.exitCode ?? code ?? (signal ? 1 : 0);
});
