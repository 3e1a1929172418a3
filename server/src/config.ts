import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv, type ErrorObject, type SchemaValidateFunction } from 'ajv';
import envSchema from 'env-schema';
import type { S3Settings } from './services/photos/photo-storage.ts';
import { MAX_PROCESSES, settingEntries, settingSchema, SettingsSchema, type SettingName, type SettingSchema, type Settings } from './settings.ts';

export { SITEMAP_MAX_URLS_PER_FILE } from './settings.ts';

/**
 * Every setting the server reads from the environment, parsed once at boot.
 * Invalid values are collected and reported together so an operator fixes them in one pass.
 */
export interface AppConfig {
  /** Web Push: the VAPID key pair and subject, and the hosts exempt from the endpoint rules (`host` or `host:port`, lower case). */
  push: { publicKey: string; privateKey: string; subject: string; allowedHosts: string[] };
  /** Email and push of notifications: the coalescing window, and the `auction_ending` milestones (seconds before the end, largest first). */
  notify: { coalesceSeconds: number; auctionEndingNotices: number[] };
  port: number;
  host: string;
  appUrl: string;
  /** Whether posting runs the contact guard (always, but for a benchmark of its cost). */
  chatContactGuard: boolean;
  /** Origins allowed to open WebSocket connections besides `appUrl`'s own. */
  allowedOrigins: string[];
  databaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  /** Redis Cluster nodes to join through (REDIS_CLUSTER_NODES), instead of the one Redis of `redisUrl`. */
  redisClusterNodes: { host: string; port: number }[] | null;
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
  /** Writes are refused (503) while the database's oldest pending statement is older than this. */
  dbQueueLimitMs: number;
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
type SettingTexts = Partial<Record<SettingName, string>>;

/**
 * A custom keyword's check: the messages it returns (empty when the value is fine) become its
 * errors, each named after the setting when reported.
 */
function keywordCheck<Options>(keyword: string, problemsOf: (options: Options, value: string) => string[]): SchemaValidateFunction {
  const validate: SchemaValidateFunction = (options: Options, value: string) => {
    const messages = problemsOf(options, value);
    validate.errors = messages.map((message) => ({ keyword, message }));
    return messages.length === 0;
  };
  return validate;
}

const urlProblems = (protocols: string[], value: string): string[] => {
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    // Not repeated: a URL may carry a password.
    return ['is not a valid URL'];
  }
  return protocols.includes(protocol) ? [] : [`must use ${protocols.join(' or ')} (got "${protocol}")`];
};

const originProblems = (_enabled: boolean, value: string): string[] =>
  listOf(value).flatMap((origin) => {
    try {
      return new URL(origin).origin === origin ? [] : [`entry "${origin}" must be a bare origin like https://example.com`];
    } catch {
      return [`entry "${origin}" is not a valid origin`];
    }
  });

/**
 * Types are not coerced by Ajv: `readSettings` turns text into numbers and flags by the project's
 * stricter rules ("1e3" is not a whole number here, "yes" and "on" are true), and a text it
 * cannot read stays text, which the schema then refuses.
 */
const settingsAjv = new Ajv({ allErrors: true, useDefaults: true, removeAdditional: true, coerceTypes: false, addUsedSchema: false });
settingsAjv.addVocabulary(['computedDefault', 'expected', 'secret']);
settingsAjv.addKeyword({ keyword: 'urlProtocols', type: 'string', schemaType: 'array', validate: keywordCheck('urlProtocols', urlProblems) });
settingsAjv.addKeyword({ keyword: 'originList', type: 'string', schemaType: 'boolean', validate: keywordCheck('originList', originProblems) });

const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** A setting's text as its schema's type; a text that is not one stays as it is, to be refused. */
function fromText(schema: SettingSchema, raw: string): unknown {
  if (schema.type === 'integer') return /^\d+$/.test(raw) ? Number(raw) : raw;
  if (schema.type === 'number') return /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (schema.type === 'boolean') {
    const word = raw.toLowerCase();
    return TRUE_WORDS.includes(word) ? true : FALSE_WORDS.includes(word) ? false : raw;
  }
  return raw;
}

/** What to tell an operator about one refused value, in the setting's own terms. */
function problemOf(error: ErrorObject, texts: SettingTexts): string {
  const name = error.instancePath.slice(1) as SettingName;
  const schema = settingSchema(name);
  if (!schema) return `${name || 'settings'} ${error.message ?? 'are invalid'}`;
  const got = schema.secret ? '' : ` (got "${texts[name] ?? ''}")`;
  if (error.keyword === 'urlProtocols' || error.keyword === 'originList') return `${name} ${error.message}`;
  if (schema.type === 'integer') return `${name} must be a whole number from ${schema.minimum} to ${schema.maximum}${got}`;
  if (schema.type === 'number') return `${name} must be a number from ${schema.minimum} to ${schema.maximum}${got}`;
  if (schema.type === 'boolean') return `${name} must be true or false${got}`;
  if (schema.enum) return `${name} must be one of ${schema.enum.join(', ')}`;
  if (error.keyword === 'minLength') return `${name} must be at least ${schema.minLength} characters`;
  if (error.keyword === 'pattern' && schema.expected) return `${name} must be ${schema.expected}${got}`;
  return `${name} ${error.message}${got}`;
}

/**
 * The environment validated against the settings schema: every setting with a fixed default is
 * filled in. Refused values are added to `problems` and read as their default (or unset), so the
 * rules after this still run and every invalid value is reported in one pass.
 */
function readSettings(env: Env, problems: string[]): { settings: Settings; texts: SettingTexts } {
  const texts: SettingTexts = {};
  const data: Record<string, unknown> = {};
  for (const [name, schema] of settingEntries()) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    texts[name] = raw;
    data[name] = fromText(schema, raw);
  }
  try {
    return { settings: envSchema<Settings>({ schema: SettingsSchema, data, env: false, ajv: settingsAjv }), texts };
  } catch (error) {
    const errors = (error as { errors?: ErrorObject[] }).errors;
    if (!errors) throw error;
    problems.push(...new Set(errors.map((e) => problemOf(e, texts))));
    const refused = new Set(errors.map((e) => e.instancePath.slice(1)));
    const settings: Record<string, unknown> = {};
    for (const [name, schema] of settingEntries()) {
      const value = refused.has(name) || !(name in data) ? schema.default : data[name];
      if (value !== undefined) settings[name] = value;
    }
    return { settings: settings as Settings, texts };
  }
}

const listOf = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const S3_OPTIONS = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PUBLIC_URL', 'S3_FORCE_PATH_STYLE'] as const;

/** S3_BUCKET turns the bucket on; the rest has defaults that suit AWS or, with S3_ENDPOINT, a compatible service. */
function bucketSettings(settings: Settings, texts: SettingTexts, problems: string[]): S3Settings | null {
  const bucket = settings.S3_BUCKET;
  if (!bucket) {
    const others = S3_OPTIONS.filter((name) => texts[name] !== undefined);
    if (others.length > 0) problems.push(`${others.join(', ')} ${others.length === 1 ? 'is' : 'are'} set but S3_BUCKET is not`);
    return null;
  }
  const endpoint = settings.S3_ENDPOINT ?? null;
  const region = settings.S3_REGION;
  const accessKeyId = settings.S3_ACCESS_KEY_ID ?? null;
  const secretAccessKey = settings.S3_SECRET_ACCESS_KEY ?? null;
  if ((accessKeyId === null) !== (secretAccessKey === null)) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  const publicUrl = settings.S3_PUBLIC_URL ?? (endpoint ? `${endpoint.replace(/\/+$/, '')}/${bucket}` : `https://${bucket}.s3.${region}.amazonaws.com`);
  return { bucket, region, endpoint, accessKeyId, secretAccessKey, publicUrl, forcePathStyle: settings.S3_FORCE_PATH_STYLE ?? endpoint !== null };
}

export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const { settings, texts } = readSettings(env, problems);

  const databaseUrl = settings.DATABASE_URL ?? null;
  const redisUrl = settings.REDIS_URL ?? null;
  const redisClusterNodes = settings.REDIS_CLUSTER_NODES
    ? listOf(settings.REDIS_CLUSTER_NODES).map((node) => {
        const at = node.lastIndexOf(':');
        return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
      })
    : null;
  if (redisUrl && redisClusterNodes) {
    problems.push('REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL for one Redis or REDIS_CLUSTER_NODES for a Redis Cluster, not both.');
  }
  const dataDir = resolve(settings.DATA_DIR);
  // In production the metrics are served only to holders of METRICS_TOKEN: without one they
  // stay off the public port unless METRICS=true says otherwise.
  const metricsToken = settings.METRICS_TOKEN ?? null;
  const production = env.NODE_ENV === 'production';
  const photoBucket = bucketSettings(settings, texts, problems);
  const cores = availableParallelism();
  const { webConcurrency, webConcurrencyNote } = processCount(
    settings.WEB_CONCURRENCY,
    { cores, databaseUrl, redisUrl: redisUrl ?? (redisClusterNodes ? settings.REDIS_CLUSTER_NODES! : null) },
    problems,
  );

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port: settings.PORT,
    host: settings.HOST,
    appUrl: (settings.APP_URL ?? `http://localhost:${settings.PORT}`).replace(/\/+$/, ''),
    chatContactGuard: settings.CHAT_CONTACT_GUARD,
    allowedOrigins: listOf(settings.ALLOWED_ORIGINS),
    databaseUrl,
    dataDir,
    redisUrl,
    redisClusterNodes,
    redisPrefix: settings.REDIS_PREFIX,
    smtpUrl: settings.SMTP_URL ?? null,
    mailFrom: settings.MAIL_FROM,
    mailRetrySeconds: settings.MAIL_RETRY_SECONDS,
    jwtSecret: settings.JWT_SECRET ?? localSecret(dataDir, 'jwt-secret'),
    push: {
      ...vapidKeys(settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY, dataDir, problems),
      subject: settings.VAPID_SUBJECT ?? `mailto:${/<([^>]+)>/.exec(settings.MAIL_FROM)?.[1] ?? settings.MAIL_FROM.trim()}`,
      allowedHosts: listOf(settings.PUSH_ENDPOINT_HOSTS_ALLOWED ?? '').map((host) => host.toLowerCase()),
    },
    notify: {
      coalesceSeconds: settings.NOTIFY_COALESCE_SECONDS,
      auctionEndingNotices: [...new Set(settings.AUCTION_ENDING_NOTICES.split(',').map(Number).filter((n) => n > 0))].sort((a, b) => b - a),
    },
    logLevel: settings.LOG_LEVEL,
    // A person at a terminal reads lines; anything else (a file, a log collector) gets JSON.
    logPretty: settings.LOG_PRETTY ?? process.stdout.isTTY === true,
    serveClient: settings.SERVE_CLIENT,
    apiCompression: settings.API_COMPRESSION,
    trustProxy: settings.TRUST_PROXY === 'true' ? true : settings.TRUST_PROXY === 'false' ? false : settings.TRUST_PROXY,
    dbPoolSize: settings.DB_POOL_SIZE,
    dbQueueLimitMs: settings.DB_QUEUE_LIMIT_MS,
    rateLimits: {
      loginPerAddressPerHour: settings.RATE_LIMIT_LOGIN_PER_IP,
      registerPerAddressPerHour: settings.RATE_LIMIT_REGISTER_PER_IP,
      recoveryPerAddressPerHour: settings.RATE_LIMIT_RECOVERY_PER_IP,
      emailsPerAddressPerHour: settings.RATE_LIMIT_PER_EMAIL,
      loginFailuresPerAccount: settings.LOGIN_FAILURES_PER_ACCOUNT,
      loginFailureWindowMinutes: settings.LOGIN_FAILURE_WINDOW_MINUTES,
    },
    listingCacheSeconds: settings.LISTING_CACHE_SECONDS,
    pageCacheEntries: settings.PAGE_CACHE_ENTRIES,
    pageFreshMs: settings.PAGE_FRESH_MS,
    metrics: { enabled: settings.METRICS ?? (!production || metricsToken !== null), token: metricsToken },
    escrow: { daySeconds: settings.ESCROW_DAY_SECONDS },
    auctions: { minSeconds: settings.AUCTION_MIN_SECONDS, extensionSeconds: settings.AUCTION_EXTENSION_SECONDS },
    alerts: { digestHourUtc: settings.DIGEST_HOUR_UTC, matchDelaySeconds: settings.ALERT_MATCH_DELAY_SECONDS },
    jobs: { pollSeconds: settings.JOB_POLL_SECONDS },
    photoBucket,
    // One core stays free for the event loop; the rest is shared by the server's processes.
    photoConcurrency: settings.PHOTO_CONCURRENCY ?? Math.max(1, Math.round((cores - 1) / webConcurrency)),
    webConcurrency,
    webConcurrencyNote,
    socketBacklog: { maxBytes: settings.SOCKET_MAX_BACKLOG_KB * 1024, maxMessages: settings.SOCKET_MAX_BACKLOG_MESSAGES },
    socketTransports: listOf(settings.SOCKET_TRANSPORTS) as ('websocket' | 'polling')[],
    sessionRecheckSeconds: settings.SESSION_RECHECK_SECONDS,
    sitemapUrlsPerFile: settings.SITEMAP_URLS_PER_FILE,
  };
}

/**
 * How many server processes to run. The embedded database belongs to one process, and the state
 * processes share (Socket.IO rooms, viewer counts, rate limits, session revocation) is exact
 * across processes only through Redis: so several processes need both DATABASE_URL and
 * REDIS_URL. Asked for explicitly without them, the server refuses to start; by default it then
 * runs one process and says why.
 */
function processCount(
  requested: number | undefined,
  { cores, databaseUrl, redisUrl }: { cores: number; databaseUrl: string | null; redisUrl: string | null },
  problems: string[],
): { webConcurrency: number; webConcurrencyNote: string | null } {
  if (requested !== undefined) {
    if (requested > 1 && !databaseUrl) {
      problems.push(
        `WEB_CONCURRENCY=${requested} needs DATABASE_URL: the embedded database in DATA_DIR can be opened by one process only. Set WEB_CONCURRENCY=1 (or leave it unset), or use PostgreSQL and Redis.`,
      );
    } else if (requested > 1 && !redisUrl) {
      problems.push(
        `WEB_CONCURRENCY=${requested} needs REDIS_URL or REDIS_CLUSTER_NODES: several processes share Socket.IO rooms, viewer counts, rate limits and session revocation through Redis.`,
      );
    }
    return { webConcurrency: requested, webConcurrencyNote: null };
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

/**
 * The VAPID key pair: both set, or a pair generated once into the data folder (like the token
 * secret), so a local restart keeps every device's subscription valid.
 */
function vapidKeys(publicKey: string | undefined, privateKey: string | undefined, dataDir: string, problems: string[]): { publicKey: string; privateKey: string } {
  if (publicKey && privateKey) return { publicKey, privateKey };
  if (publicKey || privateKey) {
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together');
    return { publicKey: '', privateKey: '' };
  }
  const file = join(dataDir, 'vapid-keys.json');
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') return { publicKey: stored.publicKey, privateKey: stored.privateKey };
  } catch {
    // Not generated yet.
  }
  const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = pair.privateKey.export({ format: 'jwk' });
  const raw = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
  const keys = { publicKey: raw.toString('base64url'), privateKey: jwk.d! };
  mkdirSync(dataDir, { recursive: true });
  try {
    // Exclusive: processes starting together keep the one pair written first.
    writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
    return keys;
  } catch {
    return JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  }
}
