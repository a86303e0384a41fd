import { describe, expect, it } from 'vitest';
import { parseTasksCommand, UsageError } from './manage-social-tasks.ts';

// The catalogue's writes (add, list, remove) are in social-repo.test.ts, on both engines.

function usageMessage(argv: string[]): string {
  try {
    parseTasksCommand(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message.split('\n')[0] ?? '';
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

describe('parseTasksCommand', () => {
  it('parses add with the default 2.00 coins and with explicit coins', () => {
    expect(
      parseTasksCommand([
        'add',
        '--platform',
        'youtube',
        '--title',
        ' Sub ',
        '--url',
        'https://youtube.com/@x',
      ]),
    ).toEqual({
      kind: 'add',
      task: { platform: 'youtube', title: 'Sub', url: 'https://youtube.com/@x', coins: 200 },
    });
    const withCoins = parseTasksCommand([
      'add',
      '--platform',
      'twitter',
      '--title',
      'Tk',
      '--url',
      'http://x.com/a',
      '--coins',
      '1.5',
    ]);
    expect(withCoins).toMatchObject({ kind: 'add', task: { coins: 150 } });
  });

  it('parses list and remove', () => {
    expect(parseTasksCommand(['list'])).toEqual({ kind: 'list' });
    expect(parseTasksCommand(['remove', 'abc'])).toEqual({ kind: 'remove', id: 'abc' });
  });

  it('gives clear usage errors', () => {
    expect(usageMessage([])).toBe('Usage:');
    expect(usageMessage(['frobnicate'])).toBe('Unknown command "frobnicate".');
    expect(usageMessage(['remove'])).toBe('"remove" needs exactly one task id.');
    expect(usageMessage(['remove', 'a', 'b'])).toBe('"remove" needs exactly one task id.');
    expect(usageMessage(['list', 'x'])).toBe('"list" takes no arguments.');
    expect(usageMessage(['add', '--title', 'Tk', '--url', 'https://a.b'])).toBe(
      '--platform must be one of: youtube, discord, tiktok, instagram, twitter',
    );
    expect(usageMessage(['add', '--platform', 'myspace', '--title', 'Tk', '--url', 'https://a.b'])).toBe(
      '--platform must be one of: youtube, discord, tiktok, instagram, twitter',
    );
    expect(usageMessage(['add', '--platform', 'youtube', '--url', 'https://a.b'])).toBe(
      '--title is required',
    );
    expect(
      usageMessage(['add', '--platform', 'youtube', '--title', 'Tk', '--url', 'javascript:alert(1)']),
    ).toMatch(/^--url must be an http\(s\) URL/);
    expect(usageMessage(['add', '--platform', 'youtube', '--title', 'Tk'])).toBe('--url is required');
    // https only in production (issue 27 item 5).
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(
        usageMessage(['add', '--platform', 'youtube', '--title', 'Tk', '--url', 'http://youtube.com/@x']),
      ).toMatch(/^--url must be an https URL in production/);
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    for (const coins of ['0', '-1', 'abc', '2.005', '100000']) {
      expect(
        usageMessage([
          'add',
          '--platform',
          'youtube',
          '--title',
          'Tk',
          '--url',
          'https://a.b',
          `--coins=${coins}`,
        ]),
      ).toBe('--coins must be an amount between 0.01 and 1000.00, e.g. 2.00');
    }
    expect(usageMessage(['add', '--platform', 'youtube', '--bogus', 'x'])).toMatch(/bogus/);
  });
});
