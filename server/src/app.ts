import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Ajv, type Options as AjvOptions, type ValidateFunction } from 'ajv';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import addFormats from 'ajv-formats';
import { SHARED_FORMATS } from '@common/validation.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppConfig } from './config.ts';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import databasePlugin from './plugins/database.ts';
import errorsPlugin, { answerFrameworkError } from './plugins/errors.ts';
import shapeCheckPlugin from './plugins/shape-check.ts';
import errorDeclarationsPlugin from './plugins/error-declarations.ts';
import inputLimitsPlugin from './plugins/input-limits.ts';
import securityHeadersPlugin from './plugins/security-headers.ts';
import compressionPlugin from './plugins/compression.ts';
import openapiPlugin from './plugins/openapi.ts';
import clientPlugin from './plugins/client.ts';
import mediaRoutes from './routes/media.ts';
import seoFileRoutes from './routes/seo-files.ts';
import healthRoutes from './routes/api/health/index.ts';
import carRoutes from './routes/api/cars/index.ts';
import authRoutes from './routes/api/auth/index.ts';
import userRoutes from './routes/api/users/index.ts';
import chatRoutes from './routes/api/chat/index.ts';
import bidRoutes from './routes/api/bids/index.ts';
import notificationRoutes from './routes/api/notifications/index.ts';
import preferenceRoutes from './routes/api/users/notification-preferences.ts';
import pushRoutes from './routes/api/push/index.ts';
import orderRoutes from './routes/api/orders/index.ts';
import offerRoutes from './routes/api/offers/index.ts';
import marketRoutes from './routes/api/market/index.ts';
import testimonialRoutes from './routes/api/testimonials/index.ts';
import supportRoutes from './routes/api/support/index.ts';
import watchlistRoutes from './routes/api/watchlist/index.ts';
import adminRoutes from './routes/api/admin/index.ts';
import redisPlugin from './plugins/redis.ts';
import metricsPlugin from './plugins/metrics.ts';
import servicesPlugin from './plugins/services.ts';
import carFeedPlugin from './realtime/car-feed.ts';
import operatorChannelPlugin from './plugins/operator-channel.ts';
import socketServerPlugin from './realtime/socket-server.ts';
import eventBridgePlugin from './realtime/event-bridge.ts';
import mailerPlugin from './plugins/mailer.ts';
import jobsPlugin from './plugins/jobs.ts';
import rateLimitsPlugin from './plugins/rate-limits.ts';
import overloadPlugin from './plugins/overload.ts';
import authPlugin from './plugins/auth.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { logOutput } from './lib/log-output.ts';
import { EventBus } from './lib/events.ts';
import type { ShapeCheck } from './lib/shape-check.ts';
import { noViewers, type ViewerCounts } from './services/cars.ts';
import type { PaymentProvider } from './services/orders/payment-provider.ts';
import type { PhotoStorage } from './services/photos/photo-storage.ts';

export interface AppDependencies {
  /** An open database to use instead of opening one from the config (tests share one per file). */
  database?: DatabaseHandle;
  /**
   * The database the config names, already being opened (the server starts the embedded engine
   * before it loads the app): the app owns it and closes it, as one it opened itself.
   */
  databaseOpening?: Promise<DatabaseHandle>;
  logger?: FastifyServerOptions['logger'];
  /** Tests move time forward to expire tokens and limits. */
  clock?: Clock;
  /** How often a process looks for job runs lost with a dead process (tests shorten it). */
  jobMaintenanceSeconds?: number;
  /** Where escrow money moves; the simulated bank by default. */
  paymentProvider?: PaymentProvider;
  /** Where listing photos are stored; from the config by default. */
  photoStorage?: PhotoStorage;
  /**
   * Holds every JSON answer and pushed event to its shared schema, objects closed (tests): a
   * mismatch answers 500 and is kept here. Off (no check) by default.
   */
  shapeCheck?: ShapeCheck;
}

export type App = FastifyInstance;

const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Builds the whole application without listening. `server.ts` listens; tests call this and use
 * `app.inject`, or listen on port 0 for sockets.
 */
export async function buildApp(config: AppConfig, deps: AppDependencies = {}): Promise<FastifyInstance> {
  const logs = deps.logger === undefined ? await logOutput(config) : { options: deps.logger, notice: null };
  const app = Fastify({
    logger: logs.options,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: answerFrameworkError,
    forceCloseConnections: 'idle',
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  if (logs.notice) app.log.info(logs.notice);

  useStrictBodyValidation(app);
  // The API speaks JSON only: any other body type is answered with 415. An empty JSON body
  // (a PUT without payload) is read as no body rather than refused.
  app.removeContentTypeParser(['text/plain']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });

  const ownsDatabase = deps.database === undefined;
  const database =
    deps.database ??
    (await (deps.databaseOpening ??
      openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize })));

  app.decorate('config', config);
  app.decorate('clock', deps.clock ?? systemClock);
  app.decorate('events', new EventBus());
  app.decorate('shapeCheck', deps.shapeCheck ?? null);
  // Live viewer numbers; zero until the real-time layer replaces this provider.
  app.decorate('viewerCounts', noViewers);
  await app.register(errorsPlugin);
  if (deps.shapeCheck) await app.register(shapeCheckPlugin, { check: deps.shapeCheck });
  // Before any route and the guards: it adds the codes of the shared layers to each route's responses.
  await app.register(errorDeclarationsPlugin);
  // Before any route: it bounds every route's schema as the route is added.
  await app.register(inputLimitsPlugin);
  await app.register(securityHeadersPlugin);
  // Before the routes: it hooks into each route as the route is added.
  if (config.apiCompression) await app.register(compressionPlugin);
  await app.register(databasePlugin, { database, closeOnShutdown: ownsDatabase });
  // Its hook runs before the guards' (sign-in, rate limits): a refused write touches nothing.
  await app.register(overloadPlugin);
  await app.register(openapiPlugin, { config });
  await app.register(redisPlugin);
  await app.register(jobsPlugin, { ...(deps.jobMaintenanceSeconds ? { maintenanceSeconds: deps.jobMaintenanceSeconds } : {}) });
  await app.register(mailerPlugin);
  await app.register(rateLimitsPlugin);
  await app.register(authPlugin);
  await app.register(metricsPlugin);
  await app.register(carFeedPlugin);
  await app.register(socketServerPlugin);
  await app.register(servicesPlugin, {
    ...(deps.paymentProvider ? { paymentProvider: deps.paymentProvider } : {}),
    ...(deps.photoStorage ? { photoStorage: deps.photoStorage } : {}),
  });
  await app.register(eventBridgePlugin);
  await app.register(operatorChannelPlugin);
  await app.register(mediaRoutes);
  await app.register(seoFileRoutes);
  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(carRoutes, { prefix: '/cars' });
      await api.register(authRoutes, { prefix: '/auth' });
      await api.register(userRoutes, { prefix: '/users' });
      await api.register(preferenceRoutes, { prefix: '/users/notification-preferences' });
      await api.register(pushRoutes, { prefix: '/push' });
      await api.register(chatRoutes, { prefix: '/chat' });
      await api.register(bidRoutes, { prefix: '/bids' });
      await api.register(notificationRoutes, { prefix: '/notifications' });
      await api.register(orderRoutes, { prefix: '/orders' });
      await api.register(offerRoutes);
      await api.register(marketRoutes);
      await api.register(testimonialRoutes, { prefix: '/testimonials' });
      await api.register(supportRoutes, { prefix: '/support' });
      await api.register(watchlistRoutes, { prefix: '/watchlist' });
      await api.register(adminRoutes, { prefix: '/admin' });
    },
    { prefix: '/api' },
  );
  if (config.serveClient) await app.register(clientPlugin);
  return app;
}

/**
 * Bodies are validated without type coercion, so `"amount": "100"` is refused rather than read as
 * a number, and unknown fields are reported rather than stripped. Query strings and path
 * parameters arrive as text and are coerced.
 */
function useStrictBodyValidation(app: FastifyInstance): void {
  const shared: AjvOptions = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };
  const withFormats = (ajv: Ajv) => {
    addFormats.default(ajv);
    for (const [name, check] of Object.entries(SHARED_FORMATS)) ajv.addFormat(name, check);
    return ajv;
  };
  const bodyAjv = withFormats(new Ajv({ ...shared, coerceTypes: false }));
  const textAjv = withFormats(new Ajv({ ...shared, coerceTypes: 'array' }));
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    // Compiled on the route's first request rather than at start (see lazySerializers).
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown) => {
      const check = (compiled ??= ajv.compile(schema));
      const valid = check(data);
      validate.errors = check.errors;
      return valid;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate;
  });
}

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled when its route first
 * answers with that status rather than all at start: compiling a few hundred of them took a
 * large share of the time to ready, most are rarely used (error statuses), and the first
 * answer pays a few milliseconds once. The fuzz tests answer every route, so a schema that
 * does not compile still fails in the tests.
 */
function lazySerializers(...factoryArgs: Parameters<ReturnType<typeof SerializerSelector>>) {
  const compile = SerializerSelector()(...factoryArgs);
  return (route: Parameters<typeof compile>[0]) => {
    let serialize: ReturnType<typeof compile> | undefined;
    return (data: unknown) => (serialize ??= compile(route))(data);
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    viewerCounts: ViewerCounts;
    clock: Clock;
    events: EventBus;
    shapeCheck: ShapeCheck | null;
  }
}
