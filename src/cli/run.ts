import { ConfigError } from '../config.ts';
import { errorMessage } from '../ops/error-text.ts';

/**
 * Runs an operator CLI's `main` on its arguments; what it returns is the exit code. A configuration
 * error, or one of `expected` (errors the operator can act on), prints its message and exits 1.
 */
export async function runCli(
  main: (argv: string[]) => number | Promise<number>,
  expected: (abstract new (...args: never[]) => Error)[] = [],
): Promise<void> {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof ConfigError) && !expected.some((kind) => err instanceof kind)) throw err;
    console.error(errorMessage(err));
    process.exitCode = 1;
  }
}
