import { logDestination, NestPinoLogger, readableLine } from './logger';
import pino from 'pino';

describe('logs', () => {
  it('reads as one line per entry on a terminal: time, level, message, the other fields', () => {
    const line = readableLine('{"level":30,"time":"2026-11-27T07:25:43.533Z","service":"gauntlet","address":"http://127.0.0.1:3000","roles":["all"],"msg":"gauntlet api listening on http://127.0.0.1:3000"}');
    expect(line).toBe('07:25:43 INFO  gauntlet api listening on http://127.0.0.1:3000  address=http://127.0.0.1:3000 roles=["all"]\n');
    expect(readableLine('not json')).toBe('not json\n');
  });

  it('is JSON in a pipe or when LOG_FORMAT=json, readable on a terminal or when LOG_FORMAT=pretty', () => {
    const written: string[] = [];
    const tty = { isTTY: true, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const pipe = { isTTY: false, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    pino({ base: null, timestamp: false }, logDestination({}, tty)).info({ a: 1 }, 'hello');
    expect(written.pop()).toBe('INFO  hello  a=1\n');
    pino({ base: null, timestamp: false }, logDestination({ LOG_FORMAT: 'pretty' }, pipe)).info('again');
    expect(written.pop()).toBe('INFO  again\n');
    // JSON goes to stdout itself (sonic-boom on fd 1), never through the formatter
    pino({ base: null, timestamp: false }, logDestination({ LOG_FORMAT: 'json' }, tty));
    pino({ base: null, timestamp: false }, logDestination({}, pipe));
    expect(written).toEqual([]);
  });

  it('keeps Nest\'s start-up chatter (modules loaded, routes mapped) at debug', () => {
    const entries: { level: number; msg: string }[] = [];
    const log = pino({ level: 'info' }, { write: (s: string) => void entries.push(JSON.parse(s)) });
    const nest = new NestPinoLogger(log);
    nest.log('Mapped {/healthz, GET} route', 'RouterExplorer');
    nest.log('something that matters', 'ScanWorker');
    expect(entries.map((e) => e.msg)).toEqual(['something that matters']);
  });
});
