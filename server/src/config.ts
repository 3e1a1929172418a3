import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { S3Settings } from './services/photos/photo-storage.ts';
import { DEFAULT_DIGEST_HOUR_UTC } from '@common/market-data.ts';

/**
 * Every setting the server reads from the environment, parsed once at boot.
 * Invalid values are collected and reported together so an operator fixes them in one pass.
 */
export interface AppConfig {
  port: number;
  host: string;
  appUrl: string;
  /** Origins allowed to open WebSocket connections besides `appUrl`'s own. */
  allowedOrigins: string[];
  databaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  /** Prefix of every Redis key and stream, so deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** First delay before a failed mail is tried again; each later one doubles. */
  mailRetrySeconds: number;
  jwtSecret: string;
  logLevel: string;
  /** Human-readable log lines (pino-pretty) instead of JSON lines. */
  logPretty: boolean;
  serveClient: boolean;
  /** Compress JSON answers of 1 KB and more (off when a proxy in front compresses). */
  apiCompression: boolean;
  trustProxy: boolean | string;
  /** Size of the PostgreSQL connection pool (ignored for the embedded database). */
  dbPoolSize: number;
  rateLimits: RateLimitConfig;
  /** How long listing results (which cars, their order, totals) are reused; 0 disables. */
  listingCacheSeconds: number;
  /** How many pages drawn on the server are kept for reuse while their data is unchanged. */
  pageCacheEntries: number;
  /** Milliseconds a drawn page as sent is served again without reading its data. */
  pageFreshMs: number;
  metrics: { enabled: boolean; token: string | null };
  escrow: EscrowConfig;
  auctions: AuctionConfig;
  alerts: AlertConfig;
  jobs: JobsConfig;
  /** Where listing photos are stored: an S3-compatible bucket, or (null) `DATA_DIR/photos`. */
  photoBucket: S3Settings | null;
  /** Photo conversions one process runs at once. */
  photoConcurrency: number;
  /**
   * Server processes sharing the port (WEB_CONCURRENCY). Above 1 a primary process forks that
   * many workers (see cluster.ts); it needs PostgreSQL and Redis.
   */
  webConcurrency: number;
  /** Why the default stayed at one process when more cores exist (logged at start), else null. */
  webConcurrencyNote: string | null;
  socketBacklog: SocketBacklogLimits;
  /**
   * `websocket` only: no HTTP long-polling, so a plain load balancer without sticky sessions can
   * spread connections over nodes (clients that cannot open a WebSocket are then refused).
   */
  socketTransports: ('websocket' | 'polling')[];
  /**
   * How often each process checks that the sessions behind its open sockets are still signed in.
   * Revocations reach sockets at once through Redis; this catches any sent while it was away.
   */
  sessionRecheckSeconds: number;
  /** URLs in one sitemap file before /sitemap.xml becomes an index of parts (lowered by tests). */
  sitemapUrlsPerFile: number;
}

/** The sitemaps protocol's limit of URLs in one file (sitemaps.org). */
export const SITEMAP_MAX_URLS_PER_FILE = 50_000;

/**
 * What a real-time client may leave unread before the server disconnects it: bytes waiting in
 * its connection, and messages queued behind them. A client that stops reading would otherwise
 * hold memory that grows with every broadcast. 0 turns a limit off.
 */
export interface SocketBacklogLimits {
  maxBytes: number;
  maxMessages: number;
}

export interface EscrowConfig {
  /** Length of one escrow day in seconds; every escrow period is counted in these days. */
  daySeconds: number;
}

export interface AuctionConfig {
  /** The shortest auction a seller may start, in seconds. */
  minSeconds: number;
  /** Soft close: a bid this close to the end moves the end this far past the bid. */
  extensionSeconds: number;
}

export interface AlertConfig {
  /** The hour (UTC) saved searches' daily digests go out. */
  digestHourUtc: number;
  /** Seconds between a publication or price drop and matching it against saved searches. */
  matchDelaySeconds: number;
}

export interface JobsConfig {
  /** How often each process asks the queue for due jobs; the longest a due job waits. */
  pollSeconds: number;
}

/**
 * Abuse limits. Per-address limits stay generous because a household or an office shares one
 * address; per-account and per-email limits are the tight ones.
 */
export interface RateLimitConfig {
  loginPerAddressPerHour: number;
  registerPerAddressPerHour: number;
  /** Forgot-password and resend-verification requests. */
  recoveryPerAddressPerHour: number;
  /** Registration, reset and verification emails to one address. */
  emailsPerAddressPerHour: number;
  /** Failed sign-ins allowed per account in one window before it is locked until the window passes. */
  loginFailuresPerAccount: number;
  loginFailureWindowMinutes: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const decimal = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be a number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  /** S3_BUCKET turns the bucket on; the rest has defaults that suit AWS or, with S3_ENDPOINT, a compatible service. */
  const bucketSettings = (): S3Settings | null => {
    const bucket = text('S3_BUCKET');
    const others = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PUBLIC_URL', 'S3_FORCE_PATH_STYLE'].filter((n) => text(n) !== undefined);
    if (!bucket) {
      if (others.length > 0) problems.push(`${others.join(', ')} ${others.length === 1 ? 'is' : 'are'} set but S3_BUCKET is not`);
      return null;
    }
    const endpoint = url('S3_ENDPOINT', ['http:', 'https:']);
    const region = text('S3_REGION') ?? 'us-east-1';
    const forcePathStyle = flag('S3_FORCE_PATH_STYLE', endpoint !== null);
    const accessKeyId = text('S3_ACCESS_KEY_ID') ?? null;
    const secretAccessKey = text('S3_SECRET_ACCESS_KEY') ?? null;
    if ((accessKeyId === null) !== (secretAccessKey === null)) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
    const publicUrl =
      url('S3_PUBLIC_URL', ['http:', 'https:']) ??
      (endpoint ? `${endpoint.replace(/\/+$/, '')}/${bucket}` : `https://${bucket}.s3.${region}.amazonaws.com`);
    return { bucket, region, endpoint, accessKeyId, secretAccessKey, publicUrl, forcePathStyle };
  };
  const url = (name: string, protocols: string[]): string | null => {
    const raw = text(name);
    if (raw === undefined) return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        problems.push(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
      }
      return raw;
    } catch {
      problems.push(`${name} is not a valid URL`);
      return null;
    }
  };
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = text(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };

  const port = integer('PORT', 3000, 0, 65535);
  const host = text('HOST') ?? '0.0.0.0';
  const appUrl = (url('APP_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const allowedOrigins = (text('ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of allowedOrigins) {
    try {
      if (new URL(origin).origin !== origin) problems.push(`ALLOWED_ORIGINS entry "${origin}" must be a bare origin like https://example.com`);
    } catch {
      problems.push(`ALLOWED_ORIGINS entry "${origin}" is not a valid origin`);
    }
  }
  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const dataDir = resolve(text('DATA_DIR') ?? '.data');
  const redisUrl = url('REDIS_URL', ['redis:', 'rediss:']);
  const redisPrefix = text('REDIS_PREFIX') ?? 'lm';
  if (!/^[A-Za-z0-9_.-]{1,50}$/.test(redisPrefix)) problems.push('REDIS_PREFIX may only contain letters, digits, dot, dash and underscore');
  const smtpUrl = url('SMTP_URL', ['smtp:', 'smtps:']);
  const mailFrom = text('MAIL_FROM') ?? 'LuxeMotors <no-reply@luxemotors.local>';
  const mailRetrySeconds = integer('MAIL_RETRY_SECONDS', 5, 1, 3_600);
  const logLevel = text('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  // A person at a terminal reads lines; anything else (a file, a log collector) gets JSON.
  const logPretty = flag('LOG_PRETTY', process.stdout.isTTY === true);
  const serveClient = flag('SERVE_CLIENT', true);
  const apiCompression = flag('API_COMPRESSION', true);
  const trustProxyRaw = text('TRUST_PROXY');
  const trustProxy = trustProxyRaw === undefined ? false : trustProxyRaw === 'true' ? true : trustProxyRaw === 'false' ? false : trustProxyRaw;
  const dbPoolSize = integer('DB_POOL_SIZE', 10, 1, 200);
  const listingCacheSeconds = integer('LISTING_CACHE_SECONDS', 10, 0, 3_600);
  const pageCacheEntries = integer('PAGE_CACHE_ENTRIES', 500, 1, 100_000);
  const pageFreshMs = integer('PAGE_FRESH_MS', 1_000, 0, 60_000);
  // In production the metrics are served only to holders of METRICS_TOKEN: without one they
  // stay off the public port unless METRICS=true says otherwise.
  const metricsToken = text('METRICS_TOKEN') ?? null;
  const production = env.NODE_ENV === 'production';
  const metrics = { enabled: flag('METRICS', !production || metricsToken !== null), token: metricsToken };
  const escrow: EscrowConfig = { daySeconds: integer('ESCROW_DAY_SECONDS', 86_400, 1, 86_400 * 30) };
  const jobs: JobsConfig = { pollSeconds: decimal('JOB_POLL_SECONDS', 1, 0.5, 60) };
  const auctions: AuctionConfig = {
    minSeconds: integer('AUCTION_MIN_SECONDS', 86_400, 1, 86_400 * 30),
    extensionSeconds: integer('AUCTION_EXTENSION_SECONDS', 120, 1, 3_600),
  };
  const alerts: AlertConfig = {
    digestHourUtc: integer('DIGEST_HOUR_UTC', DEFAULT_DIGEST_HOUR_UTC, 0, 23),
    // At least a second, so a listing published and withdrawn at once alerts nobody; at most
    // 50, so with the job poll an instant alert still leaves within the minute it promises.
    matchDelaySeconds: integer('ALERT_MATCH_DELAY_SECONDS', 5, 1, 50),
  };
  const photoBucket = bucketSettings();
  const cores = availableParallelism();
  const { webConcurrency, webConcurrencyNote } = processCount(text('WEB_CONCURRENCY'), { cores, databaseUrl, redisUrl }, problems);
  // One core stays free for the event loop; the rest is shared by the server's processes.
  const photoConcurrency = integer('PHOTO_CONCURRENCY', Math.max(1, Math.round((cores - 1) / webConcurrency)), 1, 64);
  const transportsSetting = text('SOCKET_TRANSPORTS') ?? 'websocket,polling';
  const socketTransports = transportsSetting.split(',').map((t) => t.trim());
  if (socketTransports.length === 0 || !socketTransports.every((t): t is 'websocket' | 'polling' => t === 'websocket' || t === 'polling')) {
    problems.push(`SOCKET_TRANSPORTS must be "websocket" or "websocket,polling" (got "${transportsSetting}")`);
  }
  const socketBacklog: SocketBacklogLimits = {
    maxBytes: integer('SOCKET_MAX_BACKLOG_KB', 1_024, 0, 1_048_576) * 1024,
    maxMessages: integer('SOCKET_MAX_BACKLOG_MESSAGES', 1_000, 0, 1_000_000),
  };
  const sessionRecheckSeconds = integer('SESSION_RECHECK_SECONDS', 60, 1, 3_600);
  const sitemapUrlsPerFile = integer('SITEMAP_URLS_PER_FILE', SITEMAP_MAX_URLS_PER_FILE, 1, SITEMAP_MAX_URLS_PER_FILE);
  const rateLimits: RateLimitConfig = {
    loginPerAddressPerHour: integer('RATE_LIMIT_LOGIN_PER_IP', 100, 1, 1_000_000),
    registerPerAddressPerHour: integer('RATE_LIMIT_REGISTER_PER_IP', 30, 1, 1_000_000),
    recoveryPerAddressPerHour: integer('RATE_LIMIT_RECOVERY_PER_IP', 30, 1, 1_000_000),
    emailsPerAddressPerHour: integer('RATE_LIMIT_PER_EMAIL', 5, 1, 1_000_000),
    loginFailuresPerAccount: integer('LOGIN_FAILURES_PER_ACCOUNT', 10, 1, 1_000),
    loginFailureWindowMinutes: integer('LOGIN_FAILURE_WINDOW_MINUTES', 15, 1, 24 * 60),
  };

  let jwtSecret = text('JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    problems.push('JWT_SECRET must be at least 32 characters');
  }

  if (problems.length > 0) throw new ConfigError(problems);
  jwtSecret ??= localSecret(dataDir, 'jwt-secret');

  return {
    port,
    host,
    appUrl,
    allowedOrigins,
    databaseUrl,
    dataDir,
    redisUrl,
    redisPrefix,
    smtpUrl,
    mailFrom,
    mailRetrySeconds,
    jwtSecret,
    logLevel,
    logPretty,
    serveClient,
    apiCompression,
    trustProxy,
    dbPoolSize,
    rateLimits,
    listingCacheSeconds,
    pageCacheEntries,
    pageFreshMs,
    metrics,
    escrow,
    auctions,
    alerts,
    jobs,
    photoBucket,
    photoConcurrency,
    webConcurrency,
    webConcurrencyNote,
    socketBacklog,
    socketTransports: socketTransports as ('websocket' | 'polling')[],
    sessionRecheckSeconds,
    sitemapUrlsPerFile,
  };
}

const MAX_PROCESSES = 64;

/**
 * How many server processes to run. The embedded database belongs to one process, and the state
 * processes share (Socket.IO rooms, viewer counts, rate limits, session revocation) is exact
 * across processes only through Redis: so several processes need both DATABASE_URL and
 * REDIS_URL. Asked for explicitly without them, the server refuses to start; by default it then
 * runs one process and says why.
 */
function processCount(
  raw: string | undefined,
  { cores, databaseUrl, redisUrl }: { cores: number; databaseUrl: string | null; redisUrl: string | null },
  problems: string[],
): { webConcurrency: number; webConcurrencyNote: string | null } {
  if (raw !== undefined) {
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < 1 || value > MAX_PROCESSES) {
      problems.push(`WEB_CONCURRENCY must be a whole number from 1 to ${MAX_PROCESSES} (got "${raw}")`);
      return { webConcurrency: 1, webConcurrencyNote: null };
    }
    if (value > 1 && !databaseUrl) {
      problems.push(
        `WEB_CONCURRENCY=${value} needs DATABASE_URL: the embedded database in DATA_DIR can be opened by one process only. Set WEB_CONCURRENCY=1 (or leave it unset), or use PostgreSQL and Redis.`,
      );
    } else if (value > 1 && !redisUrl) {
      problems.push(
        `WEB_CONCURRENCY=${value} needs REDIS_URL: several processes share Socket.IO rooms, viewer counts, rate limits and session revocation through Redis.`,
      );
    }
    return { webConcurrency: value, webConcurrencyNote: null };
  }
  if (cores <= 1) return { webConcurrency: 1, webConcurrencyNote: null };
  if (!databaseUrl) return { webConcurrency: 1, webConcurrencyNote: null };
  if (!redisUrl) return { webConcurrency: 1, webConcurrencyNote: `one process of ${cores} cores: several processes share real-time state through Redis, and REDIS_URL is not set` };
  return { webConcurrency: Math.min(cores, MAX_PROCESSES), webConcurrencyNote: null };
}

/** Loads the config or exits listing every bad setting (for the command-line entry points). */
export function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** A secret generated on first use and kept in the data folder, so a local restart keeps sessions valid. */
function localSecret(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // Not generated yet.
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
