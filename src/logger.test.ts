import { describe, expect, it } from 'vitest';
import { childLogger, createLogger } from './logger.ts';

describe('logger', () => {
  it('writes one JSON object per line in json format, with extra fields at the top level', () => {
    const out: string[] = [];
    const logger = createLogger('info', (l) => out.push(l), { format: 'json' });
    logger.info('payment fulfilled', { userId: 'u1', cents: 1250 });
    logger.error('job failed', { error: new Error('disk full'), msg: 'clash', level: 'clash' });
    logger.debug('hidden below the level');
    expect(out).toHaveLength(2);
    const first = JSON.parse(out[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({ level: 'info', msg: 'payment fulfilled', userId: 'u1', cents: 1250 });
    expect(Number.isNaN(Date.parse(first.time as string))).toBe(false);
    const second = JSON.parse(out[1]!) as Record<string, unknown> & {
      error: { message: string; stack: string };
    };
    // An Error keeps its message and stack; reserved keys in `extra` cannot overwrite the record's own.
    expect(second.level).toBe('error');
    expect(second.msg).toBe('job failed');
    expect(second.error.message).toBe('disk full');
    expect(second.error.stack).toContain('disk full');
    expect(second.extra_msg).toBe('clash');
    expect(second.extra_level).toBe('clash');
  });

  it('writes readable text lines in text format', () => {
    const out: string[] = [];
    createLogger('debug', (l) => out.push(l), { format: 'text' }).warn('slow', { ms: 2500 });
    expect(out[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+ WARN slow \{"ms":2500\}$/);
  });

  it('keeps every line in `lines` when silent, and only shown lines otherwise', () => {
    const silent = createLogger('silent');
    silent.debug('a');
    silent.error('b');
    expect(silent.lines).toHaveLength(2);
    const info = createLogger('info', () => undefined);
    info.debug('not formatted');
    info.info('kept');
    expect(info.lines).toHaveLength(1);
    expect(info.lines[0]).toContain('kept');
  });

  it('childLogger adds its fields to every line, letting the call override them', () => {
    const out: string[] = [];
    const child = childLogger(
      createLogger('info', (l) => out.push(l), { format: 'json' }),
      { requestId: 'r-1', job: 'a' },
    );
    child.info('hello', { job: 'b' });
    expect(JSON.parse(out[0]!)).toMatchObject({ msg: 'hello', requestId: 'r-1', job: 'b' });
  });
});
