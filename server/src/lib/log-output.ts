import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import type { AppConfig } from '../config.ts';

export interface LogOutput {
  options: NonNullable<FastifyServerOptions['logger']>;
  /** Said once the logger exists: why the lines are JSON although pretty ones were asked for. */
  notice: string | null;
}

/**
 * JSON lines, one per event, for log collectors; readable lines (pino-pretty) for a person at a
 * terminal or when LOG_PRETTY=true. pino-pretty is a development package: it is imported only
 * when wanted, and where it is not installed (a production image) the logs stay JSON.
 */
export async function logOutput(
  config: Pick<AppConfig, 'logLevel' | 'logPretty'>,
  loadPretty: () => Promise<{ default: (options: PrettyOptions) => DestinationStream }> = () => import('pino-pretty'),
): Promise<LogOutput> {
  const options = { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] };
  if (!config.logPretty) return { options, notice: null };
  try {
    const { default: pretty } = await loadPretty();
    // Synchronous writes: the last lines before a crash or process.exit are not lost.
    const stream = pretty({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true });
    return { options: { ...options, stream }, notice: null };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return { options, notice: 'pino-pretty is not installed (production dependencies only), so logs are JSON lines' };
  }
}
