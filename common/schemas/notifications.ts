import { Type, type Static, type TOptional } from 'typebox';
import { NOTIFICATION_TYPES } from '../enums.ts';
import { MAX_PUSH_SUBSCRIPTIONS, NOTIFICATION_CHANNELS, NOTIFICATION_EVENTS, QUIET_TIME_PATTERN, type NotificationChannel, type NotificationEvent } from '../notifications.ts';
import { IsoDateTime, messages, Nullable, StringEnum, strict } from './kit.ts';

/** What the notification routes answer; `notification:new` pushes the same notification. */

export const NotificationSchema = Type.Object(
  {
    id: Type.Integer(),
    type: StringEnum(NOTIFICATION_TYPES),
    event: StringEnum(NOTIFICATION_EVENTS, { description: 'What happened; the preferences choose per event where it is delivered' }),
    title: Type.String(),
    message: Type.String(),
    timestamp: IsoDateTime,
    read: Type.Boolean(),
    carId: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'Notification' },
);
export type Notification = Static<typeof NotificationSchema>;

/** `GET /api/notifications`: newest first, with the number still unread. */
export const NotificationsSnapshotSchema = Type.Object({ notifications: Type.Array(NotificationSchema), unreadCount: Type.Integer() });
export type NotificationsSnapshot = Static<typeof NotificationsSnapshotSchema>;

/** `PUT /api/notifications/read-all`: how many were marked read. */
export const ReadAllSchema = Type.Object({ updated: Type.Integer() });
export type ReadAll = Static<typeof ReadAllSchema>;

/** One event's channels. In a `PUT` any subset may be given; what is left out stays as it was. */
export const ChannelChoiceSchema = Type.Object(
  { inApp: Type.Boolean(), email: Type.Boolean(), push: Type.Boolean() },
  { ...strict, title: 'ChannelChoice' },
);
export const ChannelChoicePatchSchema = Type.Object(
  { inApp: Type.Optional(Type.Boolean()), email: Type.Optional(Type.Boolean()), push: Type.Optional(Type.Boolean()) },
  { ...strict, title: 'ChannelChoicePatch' },
);

const QuietTime = (name: string) =>
  Type.String({ pattern: QUIET_TIME_PATTERN, description: 'HH:MM, 00:00 to 23:59', ...messages({ required: `${name} is required`, default: `${name} must be a time from 00:00 to 23:59 (HH:MM)` }) });

/** Email and push wait during these hours (in-app never does); `start` after `end` runs across midnight. */
export const QuietHoursSchema = Type.Object(
  {
    start: QuietTime('Start'),
    end: QuietTime('End'),
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'An IANA time zone, e.g. Europe/Paris', ...messages({ default: 'Choose a time zone such as Europe/Paris' }) }),
  },
  { ...strict, title: 'QuietHours' },
);
export type QuietHoursValue = Static<typeof QuietHoursSchema>;

export const LockedCellSchema = Type.Object({ event: StringEnum(NOTIFICATION_EVENTS), channel: StringEnum(NOTIFICATION_CHANNELS) });
export type LockedCell = Static<typeof LockedCellSchema>;

const allEvents = Type.Object(Object.fromEntries(NOTIFICATION_EVENTS.map((event) => [event, ChannelChoiceSchema])) as Record<NotificationEvent, typeof ChannelChoiceSchema>, strict);
const someEvents = Type.Object(
  Object.fromEntries(NOTIFICATION_EVENTS.map((event) => [event, Type.Optional(ChannelChoicePatchSchema)])) as Record<NotificationEvent, TOptional<typeof ChannelChoicePatchSchema>>,
  strict,
);

/** `GET`/`PUT /api/users/notification-preferences`: every event's channels, the quiet hours, and the cells that cannot be turned off. */
export const PreferencesSchema = Type.Object(
  {
    events: allEvents,
    quietHours: Nullable(QuietHoursSchema),
    locked: Type.Array(LockedCellSchema),
  },
  { title: 'Preferences' },
);
export type Preferences = Static<typeof PreferencesSchema>;

/** The `PUT` body: any subset of events (and of each event's channels); `quietHours` null turns them off, absent leaves them. */
export const PreferencesUpdateSchema = Type.Object(
  {
    events: Type.Optional(someEvents),
    quietHours: Type.Optional(Nullable(QuietHoursSchema)),
    // The GET's answer may be sent back as it is; the locked cells are the server's, not the user's.
    locked: Type.Optional(Type.Array(LockedCellSchema, { maxItems: NOTIFICATION_EVENTS.length * NOTIFICATION_CHANNELS.length })),
  },
  { ...strict, title: 'PreferencesUpdate' },
);
export type PreferencesUpdate = Static<typeof PreferencesUpdateSchema>;

/** `GET /api/push/public-key`: the VAPID public key, base64url (`applicationServerKey`). */
export const PushPublicKeySchema = Type.Object({ publicKey: Type.String() });
export type PushPublicKey = Static<typeof PushPublicKeySchema>;

const Base64Url = (max: number, name: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '^[A-Za-z0-9_-]+=*$', ...messages({ required: `${name} is required`, default: `${name} must be base64url` }) });

/** `POST /api/push/subscriptions`: a browser's `PushSubscription.toJSON()`. */
export const PushSubscriptionBodySchema = Type.Object(
  {
    endpoint: Type.String({ minLength: 1, maxLength: 2048, ...messages({ required: 'endpoint is required', default: 'endpoint must be an https URL of a push service' }) }),
    expirationTime: Type.Optional(Nullable(Type.Number())),
    keys: Type.Object(
      {
        p256dh: Base64Url(200, 'keys.p256dh'),
        auth: Base64Url(100, 'keys.auth'),
      },
      strict,
    ),
  },
  { ...strict, title: 'PushSubscriptionBody' },
);
export type PushSubscriptionBody = Static<typeof PushSubscriptionBodySchema>;

export const PushSubscriptionCreatedSchema = Type.Object({ id: Type.Integer() });
export type PushSubscriptionCreated = Static<typeof PushSubscriptionCreatedSchema>;

/** One of the user's devices as the Settings page lists it: never the endpoint's path or keys. */
export const PushSubscriptionSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    endpointHost: Type.String(),
    createdAt: IsoDateTime,
    lastSuccessAt: Nullable(IsoDateTime),
  },
  { title: 'PushSubscription' },
);
export type PushSubscriptionSummary = Static<typeof PushSubscriptionSummarySchema>;

export const PushSubscriptionListSchema = Type.Object({ subscriptions: Type.Array(PushSubscriptionSummarySchema, { maxItems: MAX_PUSH_SUBSCRIPTIONS }) });
export type PushSubscriptionList = Static<typeof PushSubscriptionListSchema>;

/** `DELETE /api/push/subscriptions`. */
export const PushSubscriptionDeleteSchema = Type.Object(
  { endpoint: Type.String({ minLength: 1, maxLength: 2048, ...messages({ required: 'endpoint is required' }) }) },
  { ...strict, title: 'PushSubscriptionDelete' },
);
export type PushSubscriptionDelete = Static<typeof PushSubscriptionDeleteSchema>;

/** What a push carries (the service worker shows it): under 3 KB, no tokens or secrets. */
export const PushPayloadSchema = Type.Object(
  {
    title: Type.String(),
    body: Type.String(),
    url: Type.String({ description: 'A path of the app, opened or focused on click' }),
    event: Type.Union([StringEnum(NOTIFICATION_EVENTS), Type.Literal('test')]),
    carId: Nullable(Type.Integer()),
  },
  { title: 'PushPayload' },
);
export type PushPayload = Static<typeof PushPayloadSchema>;

export type { NotificationChannel, NotificationEvent };
