import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TSchema } from 'typebox';
import { LoginSchema, ProfileChangesSchema, RegisterSchema } from '@common/schemas/auth.ts';
import { NewTestimonialSchema, NewTicketSchema, ORDER_ACTION_BODIES, PlaceBidSchema, PlaceOrderSchema, PostChatSchema, WatchSchema } from '@common/schemas/commerce.ts';
import { ListingEditSchema, NewListingSchema, SAMPLE_LISTING } from '@common/schemas/listing.ts';
import { checkAgainst, type FieldIssue } from '@common/validation.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type SignedInUser } from '../helpers/users.ts';

/**
 * One schema, two validators: the server's (Ajv, behind every route) and the forms' (TypeBox's
 * `Value.Errors` in the browser). For values at each limit, both must accept or refuse alike and
 * name the same fields with the same sentences.
 */

let t: TestApp;
let user: SignedInUser;

beforeAll(async () => {
  t = await startTestApp();
  user = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

const text = (length: number, unit = 'a') => unit.repeat(length);
const inTwoDays = () => new Date(Date.now() + 2 * 86_400_000).toISOString();

const listing = { ...SAMPLE_LISTING, draft: true };

interface Endpoint {
  name: string;
  method: 'POST' | 'PUT' | 'PATCH';
  url: string;
  schema: TSchema;
  base: Record<string, unknown>;
  /** Each case changes the base body: a value per field, `undefined` removes the field. */
  cases: Record<string, unknown>[];
}

const endpoints: Endpoint[] = [
  {
    name: 'new listing',
    method: 'POST',
    url: '/api/cars',
    schema: NewListingSchema,
    base: listing,
    cases: [
      { make: '' },
      { make: '   ' },
      { make: 'A' },
      { make: text(60) },
      { make: text(61) },
      { make: text(60, '🚗') },
      { make: text(61, '🚗') },
      { make: undefined },
      { year: 1899 },
      { year: 1900 },
      { year: 2020.5 },
      { year: '2020' },
      { price: 0 },
      { price: 1 },
      { price: 1_000_000 },
      { price: 1_000_001 },
      { price: 1.5 },
      { price: '100' },
      { mileage: -1 },
      { mileage: 0 },
      { mileage: 1_000_000 },
      { mileage: 1_000_001 },
      { condition: 'excellent' },
      { condition: 'Like New' },
      { bodyStyle: 'wagon' },
      { bodyStyle: 'van' },
      { description: text(5_000) },
      { description: text(5_001) },
      { features: Array.from({ length: 40 }, (_, i) => `Feature ${i}`) },
      { features: Array.from({ length: 41 }, (_, i) => `Feature ${i}`) },
      { features: [''] },
      { features: [text(80)] },
      { features: [text(81)] },
      { features: 'Sport Chrono' },
      { color: 'red' },
      { make: '', price: 0, bodyStyle: 'van' },
      { auction: { endsAt: 'next week' } },
      { auction: { endsAt: inTwoDays(), reservePrice: 0 } },
      { auction: { endsAt: inTwoDays(), reservePrice: 150_000 } },
      { auction: { endsAt: inTwoDays(), extra: 1 } },
    ],
  },
  {
    name: 'listing edit',
    method: 'PATCH',
    url: '/api/cars/2147483647',
    schema: ListingEditSchema,
    base: {},
    cases: [{ price: 0 }, { price: 99_000 }, { make: 'Ferrari' }, { location: ' ' }, { features: [text(81)] }, { mileage: 1_000_001 }],
  },
  {
    name: 'registration',
    method: 'POST',
    url: '/api/auth/register',
    schema: RegisterSchema,
    base: { name: 'Edge Case', email: 'edge@example.com', password: 'Sup3r$ecret!' },
    cases: [
      { name: '' }, { name: text(100) }, { name: text(101) },
      { email: 'not-an-email' }, { email: 'a@b' }, { email: 'first.last+tag@example.co.uk' },
      { email: `${text(242)}@example.com` }, { email: `${text(243)}@example.com` }, { email: undefined },
      { password: text(1_001) },
    ],
  },
  {
    name: 'sign-in',
    method: 'POST',
    url: '/api/auth/login',
    schema: LoginSchema,
    base: { email: 'nobody@example.com', password: 'wrong' },
    cases: [{ email: 'nobody@example' }, { password: undefined }, { remember: true }],
  },
  {
    name: 'profile',
    method: 'PUT',
    url: '/api/users/profile',
    schema: ProfileChangesSchema,
    base: {},
    cases: [
      { name: ' ' }, { name: text(100) }, { name: text(101) },
      { avatar: 'https://example.com/me.png' }, { avatar: '/media/me.png' }, { avatar: '//evil.example/me.png' },
      { avatar: 'ftp://example.com/me.png' }, { avatar: null }, { avatar: `https://example.com/${text(481)}` },
      { phone: '+1 (555) 010-9999' }, { phone: '555-CALL-NOW' }, { phone: text(31, '1') },
      { bio: text(500) }, { bio: text(501) }, { bio: 42 },
      { location: text(101) }, { email: 'new@example.com' },
    ],
  },
  {
    name: 'bid',
    method: 'POST',
    url: '/api/bids',
    schema: PlaceBidSchema,
    base: { carId: 2_147_483_647, amount: 1 },
    cases: [{ amount: 0 }, { amount: 100_000_000 }, { amount: 100_000_001 }, { amount: 10.5 }, { carId: 0 }, { carId: 2_147_483_648 }, { amount: '500' }],
  },
  {
    name: 'chat message',
    method: 'POST',
    url: '/api/chat',
    schema: PostChatSchema,
    base: { carId: 2_147_483_647, message: 'Is the service history complete?' },
    cases: [{ message: '' }, { message: text(1_000) }, { message: text(1_001) }, { type: 'question' }, { type: 'bid' }],
  },
  {
    name: 'order',
    method: 'POST',
    url: '/api/orders',
    schema: PlaceOrderSchema,
    base: { carId: 2_147_483_647, amount: 100_000 },
    cases: [{ amount: 0 }, { amount: 1_000_000_000 }, { amount: 1_000_000_001 }, { plan: 'gold' }, { plan: 'platinum' }],
  },
  {
    name: 'shipment',
    method: 'POST',
    url: '/api/orders/2147483647/ship',
    schema: ORDER_ACTION_BODIES.ship,
    base: { carrier: 'Reliable Carriers', trackingNumber: 'RC-1' },
    cases: [{ carrier: ' ' }, { carrier: text(100) }, { carrier: text(101) }, { trackingNumber: undefined }],
  },
  {
    name: 'dispute',
    method: 'POST',
    url: '/api/orders/2147483647/dispute',
    schema: ORDER_ACTION_BODIES.dispute,
    base: { reason: 'The paint does not match the photos.' },
    cases: [{ reason: '' }, { reason: '\n\t ' }, { reason: text(2_000) }, { reason: text(2_001) }],
  },
  {
    name: 'support ticket',
    method: 'POST',
    url: '/api/support/tickets',
    schema: NewTicketSchema,
    base: { subject: 'Inspection', message: 'Can I choose the shop?' },
    cases: [{ subject: '' }, { subject: text(150) }, { subject: text(151) }, { message: text(5_001) }, { category: 'escrow' }, { category: 'refunds' }, { email: 'someone@' }],
  },
  {
    name: 'testimonial',
    method: 'POST',
    url: '/api/testimonials',
    schema: NewTestimonialSchema,
    base: { rating: 5, comment: 'Smooth purchase from start to end.' },
    cases: [{ rating: 0 }, { rating: 6 }, { rating: 4.5 }, { comment: text(9) }, { comment: text(10) }, { comment: ' '.repeat(12) }, { carPurchased: text(101) }],
  },
  {
    name: 'watchlist',
    method: 'POST',
    url: '/api/watchlist',
    schema: WatchSchema,
    base: { carId: 1 },
    cases: [{ carId: 0 }, { carId: -4 }, { carId: '1' }, { carId: 2_147_483_648 }],
  },
];

function withChange(base: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  const body = { ...base, ...change };
  for (const [key, value] of Object.entries(change)) if (value === undefined) delete body[key];
  return body;
}

const sorted = (issues: FieldIssue[]) => [...issues].sort((a, b) => a.field.localeCompare(b.field));
const label = (change: Record<string, unknown>) => JSON.stringify(change, (_k, v: unknown) => (typeof v === 'string' && v.length > 24 ? `${v.slice(0, 6)}…(${[...v].length})` : v));

describe.each(endpoints)('$name: the server and the form judge the same body alike', ({ method, url, schema, base, cases }) => {
  it.each(cases.map((change) => [label(change), change] as const))('%s', async (_label, change) => {
    const body = withChange(base, change);
    const formIssues = checkAgainst(schema, body);
    const res = await t.app.inject({ method, url, headers: user.auth, payload: body });
    const answer = res.json() as { code?: string; details?: FieldIssue[] };
    const serverRefused = res.statusCode === 400 && answer.code === 'VALIDATION_FAILED';

    expect(serverRefused, `server answered ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(formIssues.length > 0);
    if (serverRefused) expect(sorted(answer.details ?? [])).toEqual(sorted(formIssues));
  });
});

it('refuses each broken rule with the sentence the form shows beside the field', () => {
  expect(checkAgainst(NewListingSchema, withChange(listing, { make: '', price: 1_000_001, bodyStyle: 'van' }))).toEqual(
    expect.arrayContaining([
      { field: 'make', message: 'Enter the make, for example Porsche' },
      { field: 'price', message: 'The price must be at most $1,000,000' },
      { field: 'bodyStyle', message: 'Choose a body style' },
    ]),
  );
  expect(checkAgainst(ProfileChangesSchema, { avatar: '//evil.example/me.png' })).toEqual([
    { field: 'avatar', message: 'Avatar must be a web address starting with http:// or https://' },
  ]);
  expect(checkAgainst(NewListingSchema, withChange(listing, { color: 'red' }))).toEqual([{ field: 'color', message: 'color is not an allowed field' }]);
});
