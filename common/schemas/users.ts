import { Type, type Static } from 'typebox';
import { USER_ROLES } from '../back-office.ts';
import { IsoDateTime, StringEnum } from './kit.ts';

/** The account as its owner sees it, and the dashboard's figures. */

/** The account as its owner sees it (contract `User`): never a password hash or a token. */
export const UserSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    email_verified: Type.Boolean(),
    avatar: Type.Union([Type.String(), Type.Null()]),
    bio: Type.Union([Type.String(), Type.Null()]),
    phone: Type.Union([Type.String(), Type.Null()]),
    location: Type.Union([Type.String(), Type.Null()]),
    created_at: IsoDateTime,
    role: StringEnum(USER_ROLES),
    totp_enabled: Type.Boolean({ description: 'Whether sign-in asks for a code from an authenticator app' }),
  },
  { title: 'User' },
);
export type PublicUser = Static<typeof UserSchema>;

/** One line of the dashboard's recent activity. */
export const ActivityItemSchema = Type.Object({
  type: StringEnum(['bid', 'message', 'order', 'notification'] as const),
  title: Type.String(),
  description: Type.String(),
  carId: Type.Union([Type.Integer(), Type.Null()]),
  timestamp: IsoDateTime,
});
export type ActivityItem = Static<typeof ActivityItemSchema>;

export const DashboardStatsSchema = Type.Object({ activeBids: Type.Integer(), watchlist: Type.Integer(), messages: Type.Integer(), activity: Type.Integer() });
export type DashboardStats = Static<typeof DashboardStatsSchema>;

/** `GET /api/users/dashboard`. */
export const DashboardSummarySchema = Type.Object({ stats: DashboardStatsSchema, recentActivity: Type.Array(ActivityItemSchema) });
export type DashboardSummary = Static<typeof DashboardSummarySchema>;
