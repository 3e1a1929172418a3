import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { logOutput } from './log-output.ts';

// Set so that reading the configuration writes no secret into a data folder.
const SECRET = 'x'.repeat(32);

describe('log output', () => {
  it('writes JSON lines unless told otherwise', async () => {
    const config = loadConfig({ LOG_PRETTY: 'false', JWT_SECRET: SECRET });
    const { options, notice } = await logOutput(config);
    expect(notice).toBeNull();
    expect(options).not.toHaveProperty('stream');
  });

  it('writes readable lines through pino-pretty when LOG_PRETTY=true', async () => {
    const { options } = await logOutput({ logLevel: 'info', logPretty: true });
    expect(options).toHaveProperty('stream');
    expect(loadConfig({ LOG_PRETTY: 'true', JWT_SECRET: SECRET }).logPretty).toBe(true);
  });

  it('falls back to JSON, and says why, where pino-pretty is not installed', async () => {
    const notInstalled = () => Promise.reject(Object.assign(new Error("Cannot find package 'pino-pretty'"), { code: 'ERR_MODULE_NOT_FOUND' }));
    const { options, notice } = await logOutput({ logLevel: 'info', logPretty: true }, notInstalled);
    expect(options).not.toHaveProperty('stream');
    expect(notice).toContain('pino-pretty is not installed');
    // What is written is JSON a collector can read.
    let written = '';
    const sink = new Writable({ write: (chunk, _encoding, done) => ((written += chunk), done()) });
    pino(options as pino.LoggerOptions, sink).info('hello');
    expect(JSON.parse(written)).toMatchObject({ level: 30, msg: 'hello' });
  });
});
