import { Type, type Static, type TSchema } from 'typebox';
import { DEFAULT_DIGEST_HOUR_UTC } from '@common/market-data.ts';

/**
 * Every environment variable the server reads, once, with its type, bounds, default and meaning.
 * `loadConfig` validates the environment against it (env-schema); `npm run docs:settings` writes
 * the table in docs/configuration.md and `.env.example` from it.
 *
 * Besides JSON Schema's own keywords a setting may carry:
 * - `computedDefault`: the default worked out at start from other settings or the machine,
 *   in words for the docs (such a setting has no `default`: the loader computes it);
 * - `urlProtocols`: the value is a URL with one of these protocols;
 * - `originList`: the value is a comma-separated list of bare origins;
 * - `expected`: what a value must be, in words, for a setting checked by `pattern`;
 * - `secret`: the value is never repeated in an error message.
 */
type SettingDocs = {
  description: string;
  computedDefault?: string;
  examples?: string[];
};

const wholeNumber = (minimum: number, maximum: number, fallback: number, docs: SettingDocs) => Type.Integer({ minimum, maximum, default: fallback, ...docs });
/** A whole number whose default is worked out at start (`computedDefault`). */
const computedWholeNumber = (minimum: number, maximum: number, docs: SettingDocs & { computedDefault: string }) =>
  Type.Optional(Type.Integer({ minimum, maximum, ...docs }));
const decimal = (minimum: number, maximum: number, fallback: number, docs: SettingDocs) => Type.Number({ minimum, maximum, default: fallback, ...docs });
const flag = (fallback: boolean, docs: SettingDocs) => Type.Boolean({ default: fallback, ...docs });
const computedFlag = (docs: SettingDocs & { computedDefault: string }) => Type.Optional(Type.Boolean(docs));
const text = (fallback: string, docs: SettingDocs) => Type.String({ default: fallback, ...docs });
const url = (protocols: string[], docs: SettingDocs) => Type.Optional(Type.String({ urlProtocols: protocols, ...docs }));

/** The sitemaps protocol's limit of URLs in one file (sitemaps.org). */
export const SITEMAP_MAX_URLS_PER_FILE = 50_000;
/** The most server processes WEB_CONCURRENCY may ask for. */
export const MAX_PROCESSES = 64;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const PER_HOUR_LIMIT = 1_000_000;
const THIRTY_DAYS = 86_400 * 30;

export const SettingsSchema = Type.Object(
  {
    PORT: wholeNumber(0, 65_535, 3000, { description: 'Port to listen on' }),
    HOST: text('0.0.0.0', { description: 'Interface to listen on' }),
    APP_URL: url(['http:', 'https:'], {
      description: 'Public base URL, used for links in emails (never taken from request headers)',
      computedDefault: 'http://localhost:$PORT',
    }),
    ALLOWED_ORIGINS: Type.Optional(
      Type.String({
        originList: true,
        description: "Extra comma-separated origins allowed to open WebSockets besides `APP_URL`'s and the server's own host and port",
        examples: ['https://admin.example.com'],
      }),
    ),
    DATABASE_URL: url(['postgres:', 'postgresql:'], {
      description: 'PostgreSQL URL; when unset the embedded database (PGlite) in `DATA_DIR` is used',
      examples: ['postgres://postgres:postgres@127.0.0.1:5432/luxemotors'],
    }),
    DB_POOL_SIZE: wholeNumber(1, 200, 10, { description: 'PostgreSQL connection pool size, per server process' }),
    DB_QUEUE_LIMIT_MS: wholeNumber(1, 60_000, 500, {
      description:
        'When the oldest statement waiting for the database has waited longer than this, writes answer 503 SERVICE_UNAVAILABLE with Retry-After at once (before any transaction starts); reads and real-time delivery go on',
    }),
    DATA_DIR: text('.data', { description: 'Embedded database, local listing photos and generated local secrets' }),
    REDIS_URL: url(['redis:', 'rediss:'], {
      description: 'Redis URL (Redis 7 or later, for sharded pub/sub); joins several server processes for real-time events, presence, rate limits and sign-outs',
      examples: ['redis://127.0.0.1:6379'],
    }),
    REDIS_CLUSTER_NODES: Type.Optional(
      Type.String({
        pattern: '^\\s*[A-Za-z0-9_.-]+:\\d{1,5}\\s*(,\\s*[A-Za-z0-9_.-]+:\\d{1,5}\\s*)*$',
        expected: 'comma-separated host:port pairs',
        description:
          'Redis Cluster nodes (some or all); joins server processes through the cluster instead of one Redis, with sharded pub/sub for real-time events. Not together with `REDIS_URL`',
        examples: ['10.0.0.1:7000,10.0.0.2:7000,10.0.0.3:7000'],
      }),
    ),
    SMTP_URL: url(['smtp:', 'smtps:'], {
      description: 'SMTP server for emails; when unset emails and their links are written to the server log',
      examples: ['smtp://user:pass@smtp.example.com:587'],
    }),
    MAIL_FROM: text('LuxeMotors <no-reply@luxemotors.local>', { description: 'Sender of emails' }),
    JWT_SECRET: Type.Optional(
      Type.String({
        minLength: 32,
        secret: true,
        description: 'Access-token signing secret; when unset one is generated once and kept in `DATA_DIR`, so a local restart keeps sessions. Set it in production',
        computedDefault: 'generated into `DATA_DIR`',
      }),
    ),
    SERVE_CLIENT: flag(true, { description: 'Serve the built web app from the API process (`false` when a CDN or the Vite dev server serves it)' }),
    TRUST_PROXY: text('false', { description: 'Trust `X-Forwarded-*` headers: `false`, `true`, or a comma-separated list of proxy addresses' }),
    LOG_LEVEL: Type.Enum([...LOG_LEVELS], { default: 'info', description: 'How much the server logs' }),
    LOG_PRETTY: computedFlag({
      description: 'Readable log lines (pino-pretty, a development package) instead of JSON lines; `false` when output goes to a file or collector',
      computedDefault: '`true` at a terminal, else `false`',
    }),
    CHAT_CONTACT_GUARD: flag(true, {
      description:
        'Hold discussion messages with contact details or payment outside escrow for an operator. Only a benchmark measuring the cost of the guard turns it off.',
    }),
    API_COMPRESSION: flag(true, { description: 'Compress JSON answers of 1 KB and more (gzip or brotli); `false` when a proxy in front compresses' }),
    REDIS_PREFIX: Type.String({
      default: 'lm',
      pattern: '^[A-Za-z0-9_.-]{1,50}$',
      expected: 'at most 50 letters, digits, dots, dashes and underscores',
      description: 'Prefix of Redis keys and streams (several deployments can share one Redis)',
    }),
    RATE_LIMIT_LOGIN_PER_IP: wholeNumber(1, PER_HOUR_LIMIT, 100, { description: 'Sign-ins per client address per hour' }),
    RATE_LIMIT_REGISTER_PER_IP: wholeNumber(1, PER_HOUR_LIMIT, 30, { description: 'Registrations per client address per hour' }),
    RATE_LIMIT_RECOVERY_PER_IP: wholeNumber(1, PER_HOUR_LIMIT, 30, { description: 'Forgot-password and resend-verification requests per client address per hour' }),
    RATE_LIMIT_PER_EMAIL: wholeNumber(1, PER_HOUR_LIMIT, 5, { description: 'Account emails (verification, reset) to one address per hour' }),
    LOGIN_FAILURES_PER_ACCOUNT: wholeNumber(1, 1_000, 10, {
      description: 'Failed sign-ins per account in `LOGIN_FAILURE_WINDOW_MINUTES` before it is locked until the window passes',
    }),
    LOGIN_FAILURE_WINDOW_MINUTES: wholeNumber(1, 24 * 60, 15, { description: 'The window in which `LOGIN_FAILURES_PER_ACCOUNT` failed sign-ins lock an account, in minutes' }),
    LISTING_CACHE_SECONDS: wholeNumber(0, 3_600, 10, {
      description: 'How long listing results (which cars, their order, the total) are reused; rows and counters are always read fresh; `0` disables',
    }),
    PAGE_CACHE_ENTRIES: wholeNumber(1, 100_000, 500, {
      description: 'Pages drawn on the server kept for reuse while the data they were drawn from is unchanged (each up to 60 s)',
    }),
    PAGE_FRESH_MS: wholeNumber(0, 60_000, 1_000, {
      description:
        "Milliseconds a drawn page as sent is served again without reading its data; this process's changes to a car drop its page at once, another process's show within this time; `0` disables",
    }),
    METRICS: computedFlag({
      description: 'Serve Prometheus metrics at `/metrics`',
      computedDefault: '`true`; in production (`NODE_ENV=production`) only with `METRICS_TOKEN`',
    }),
    METRICS_TOKEN: Type.Optional(Type.String({ secret: true, description: 'Require `Authorization: Bearer <token>` for `/metrics`' })),
    ESCROW_DAY_SECONDS: wholeNumber(1, THIRTY_DAYS, 86_400, {
      description: 'Length of one escrow day in seconds; every escrow period (payment window, inspection) is counted in these days. `60` runs a whole purchase in minutes',
    }),
    AUCTION_MIN_SECONDS: wholeNumber(1, THIRTY_DAYS, 86_400, { description: 'Shortest auction a seller may start (its `endsAt` at least this far ahead), in seconds' }),
    VAPID_PUBLIC_KEY: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{80,100}$',
        expected: 'the base64url public key of a P-256 key pair (`npx web-push generate-vapid-keys`)',
        description: 'Web Push (VAPID) public key, base64url; with VAPID_PRIVATE_KEY. When both are unset a pair is generated once and kept in `DATA_DIR`. Set them in production: a new pair invalidates every device subscription',
        computedDefault: 'generated into `DATA_DIR`',
      }),
    ),
    VAPID_PRIVATE_KEY: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_-]{40,50}$',
        secret: true,
        expected: 'the base64url private key of a P-256 key pair',
        description: 'Web Push (VAPID) private key, base64url; with VAPID_PUBLIC_KEY',
        computedDefault: 'generated into `DATA_DIR`',
      }),
    ),
    VAPID_SUBJECT: Type.Optional(
      Type.String({
        pattern: '^(mailto:|https://)\\S+$',
        expected: 'a mailto: or https: URL',
        description: 'Who push services contact about this sender (VAPID `sub`)',
        computedDefault: '`mailto:` and the address of `MAIL_FROM`',
      }),
    ),
    NOTIFY_COALESCE_SECONDS: wholeNumber(1, 86_400, 300, {
      description: 'Email and push for one user, event and car: what follows the first within this many seconds is gathered into one message when the window ends',
    }),
    AUCTION_ENDING_NOTICES: Type.String({
      default: '3600,600',
      pattern: '^\\d{1,6}(,\\d{1,6})*$',
      expected: 'seconds before the end, comma-separated',
      description: '`auction_ending` notices: seconds before an auction ends, comma-separated',
    }),
    PUSH_ENDPOINT_HOSTS_ALLOWED: Type.Optional(
      Type.String({
        description: 'Comma-separated `host[:port]` of push endpoints exempt from the endpoint rules (https, public address; plain http allowed): local push receivers',
        examples: ['127.0.0.1:7410,push.test'],
      }),
    ),
    AUCTION_EXTENSION_SECONDS: wholeNumber(1, 3_600, 120, { description: "Soft close: a bid this close to the end moves the end to the bid's time plus this, in seconds" }),
    MAIL_RETRY_SECONDS: wholeNumber(1, 3_600, 5, { description: 'First wait before an outgoing mail is tried again (doubling on each failure), in seconds' }),
    SOCKET_MAX_BACKLOG_KB: wholeNumber(0, 1_048_576, 1_024, { description: 'Kilobytes a real-time client may leave unread before it is disconnected (`0`: no limit)' }),
    SOCKET_MAX_BACKLOG_MESSAGES: wholeNumber(0, 1_000_000, 1_000, { description: 'Messages a real-time client may leave unread before it is disconnected (`0`: no limit)' }),
    SOCKET_TRANSPORTS: Type.String({
      default: 'websocket,polling',
      pattern: '^\\s*(websocket|polling)\\s*(,\\s*(websocket|polling)\\s*)*$',
      expected: '"websocket" or "websocket,polling"',
      description:
        '`websocket`: real time over WebSockets only, so nodes behind a plain load balancer need no sticky sessions (clients that cannot open a WebSocket are refused); `websocket,polling` also allows HTTP long-polling',
    }),
    DIGEST_HOUR_UTC: wholeNumber(0, 23, DEFAULT_DIGEST_HOUR_UTC, { description: "The hour (UTC) saved searches' daily digest emails go out" }),
    // At least a second, so a listing published and withdrawn at once alerts nobody; at most 50,
    // so with the job poll an instant alert still leaves within the minute it promises.
    ALERT_MATCH_DELAY_SECONDS: wholeNumber(1, 50, 5, {
      description: 'Seconds between a publication or price drop and matching it against saved searches (a listing withdrawn sooner alerts nobody)',
    }),
    SESSION_RECHECK_SECONDS: wholeNumber(1, 3_600, 60, {
      description: 'How often open sockets re-check that their session is still valid, in seconds (catches a revocation missed during a Redis outage)',
    }),
    S3_BUCKET: Type.Optional(Type.String({ description: 'Keep listing photos in this S3-compatible bucket instead of `DATA_DIR/photos`', examples: ['listing-photos'] })),
    S3_ENDPOINT: url(['http:', 'https:'], {
      description: "The bucket's service when it is not AWS S3 (MinIO, Cloudflare R2, ...); needs `S3_BUCKET`",
      examples: ['https://minio.example.com'],
    }),
    S3_REGION: text('us-east-1', { description: "The bucket's region; needs `S3_BUCKET`" }),
    S3_ACCESS_KEY_ID: Type.Optional(
      Type.String({ description: "The bucket's access key, with `S3_SECRET_ACCESS_KEY`; when unset the AWS SDK's usual credentials are used; needs `S3_BUCKET`" }),
    ),
    S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ secret: true, description: 'The secret of `S3_ACCESS_KEY_ID`; needs `S3_BUCKET`' })),
    S3_PUBLIC_URL: url(['http:', 'https:'], {
      description: "Where the bucket's objects are publicly readable (a CDN in front of it, typically); needs `S3_BUCKET`",
      computedDefault: "`S3_ENDPOINT`/`S3_BUCKET`, or the AWS bucket's URL",
      examples: ['https://photos.example.com'],
    }),
    S3_FORCE_PATH_STYLE: computedFlag({
      description: "Address the bucket as a path of the endpoint rather than as a host name; needs `S3_BUCKET`",
      computedDefault: '`true` with `S3_ENDPOINT`, else `false`',
    }),
    PHOTO_CONCURRENCY: computedWholeNumber(1, 64, {
      description: 'Photo conversions one process runs at once',
      computedDefault: '(cores − 1) ÷ processes, at least 1',
    }),
    WEB_CONCURRENCY: computedWholeNumber(1, MAX_PROCESSES, {
      description:
        'Server processes sharing the port; more than 1 needs `DATABASE_URL` and `REDIS_URL` (the embedded database belongs to one process, and processes share real-time state through Redis)',
      computedDefault: 'one per core with `DATABASE_URL` and `REDIS_URL`, else `1`',
    }),
    SITEMAP_URLS_PER_FILE: wholeNumber(1, SITEMAP_MAX_URLS_PER_FILE, SITEMAP_MAX_URLS_PER_FILE, {
      description: "URLs in one sitemap file before `/sitemap.xml` becomes an index of parts (the protocol's limit is the default)",
    }),
    JOB_POLL_SECONDS: decimal(0.5, 60, 1, { description: 'How often each process looks for due jobs (deadlines, payouts, mail), in seconds: the longest a due job waits' }),
  },
  { additionalProperties: false },
);

/** The settings as validated: every setting with a fixed default is present. */
export type Settings = Static<typeof SettingsSchema>;
export type SettingName = keyof Settings & string;

/** One setting's schema, with the annotations above. */
export type SettingSchema = TSchema & {
  type?: 'integer' | 'number' | 'boolean' | 'string';
  description: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  enum?: string[];
  examples?: string[];
  computedDefault?: string;
  urlProtocols?: string[];
  originList?: boolean;
  expected?: string;
  secret?: boolean;
};

/** Every setting in the order the docs list them. */
export function settingEntries(): [SettingName, SettingSchema][] {
  return Object.entries(SettingsSchema.properties) as unknown as [SettingName, SettingSchema][];
}

export function settingSchema(name: string): SettingSchema | undefined {
  return Object.hasOwn(SettingsSchema.properties, name) ? (SettingsSchema.properties[name as SettingName] as unknown as SettingSchema) : undefined;
}
