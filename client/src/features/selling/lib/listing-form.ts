import { Type, type TSchema } from 'typebox';
import { AUCTION_MAX_DAYS } from '@common/auction-rules.ts';
import {
  BODY_STYLE_LABELS,
  CAR_CONDITIONS,
  LISTING_LIMITS,
  latestModelYear,
  modelYearMessage,
  type CarBodyStyle,
  type CarCondition,
} from '@common/listing.ts';
import { ReservePrice, listingFields, type ListingEdit, type NewListing } from '@common/schemas/listing.ts';
import type { AuctionDetail, CarDetail } from '@common/schemas/cars.ts';
import { checkAgainst } from '@common/validation.ts';
import { detailsByField } from '../../../lib/field-errors.ts';

/**
 * The listing form (`/sell` and `/sell/:id/edit`): its values, the live checks (each field is
 * checked against the very schema the server validates `POST /api/cars` with, so the message
 * beside the field is the one the server would send), the request bodies, and the mapping of a
 * 400 `VALIDATION_FAILED` back onto the fields. The server still decides.
 */

export { LISTING_LIMITS, latestModelYear, type ListingEdit, type NewListing };
export { EDITABLE_FIELDS, type EditableField } from '@common/schemas/listing.ts';

/** In the order the form offers them. */
export const BODY_STYLES = (['sedan', 'coupe', 'convertible', 'suv', 'sports', 'wagon'] as const satisfies readonly CarBodyStyle[]).map((value) => ({
  value,
  label: BODY_STYLE_LABELS[value],
}));
export type BodyStyle = CarBodyStyle;

export const CONDITIONS = CAR_CONDITIONS;
export type Condition = CarCondition;

/** How the car is sold: at its asking price, or at a timed auction where the price is the starting bid. */
export const SALE_TYPES = [
  { value: 'fixed', label: 'Fixed price' },
  { value: 'auction', label: 'Timed auction' },
] as const;
export type SaleType = (typeof SALE_TYPES)[number]['value'];

/**
 * The shortest auction the form offers. The server's own minimum (AUCTION_MIN_SECONDS, 24 hours
 * by default) cannot be read from here; should it differ, its message is shown instead.
 */
export const AUCTION_MIN_HOURS = 24;

/** What the form holds: text as typed (numbers too), so a half-typed value is never lost. */
export interface ListingFormValues {
  make: string;
  model: string;
  year: string;
  bodyStyle: BodyStyle | '';
  condition: Condition | '';
  price: string;
  mileage: string;
  location: string;
  description: string;
  features: string[];
  saleType: SaleType;
  /** When the auction ends, as a `datetime-local` value in this device's time zone ("2026-06-08T18:00"). */
  auctionEnds: string;
  /** Optional reserve, whole dollars as typed. */
  reservePrice: string;
}

export type ListingField = keyof ListingFormValues;
export type ListingErrors = Partial<Record<ListingField, string>>;

/** Field order on the form (the first invalid one gets focus). */
export const LISTING_FIELDS: readonly ListingField[] = [
  'make',
  'model',
  'year',
  'bodyStyle',
  'condition',
  'saleType',
  'price',
  'auctionEnds',
  'reservePrice',
  'mileage',
  'location',
  'description',
  'features',
];

export const EMPTY_LISTING: ListingFormValues = {
  make: '',
  model: '',
  year: '',
  bodyStyle: '',
  condition: '',
  price: '',
  mileage: '',
  location: '',
  description: '',
  features: [],
  saleType: 'fixed',
  auctionEnds: '',
  reservePrice: '',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a `datetime-local` value in this device's time zone ("2026-06-08T18:00"). */
export function toLocalInput(time: Date | number): string {
  const d = new Date(time);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value read as this device's local time; null when it is not one. */
export function parseLocalInput(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [y, mo, d, h, mi] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, match[6] ? Number(match[6]) : 0);
  // Reject dates that roll over (Feb 30) instead of silently moving them.
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || date.getHours() !== h || date.getMinutes() !== mi) {
    return null;
  }
  return date;
}

/** The end the form suggests: a week ahead, on the hour. */
export function defaultAuctionEnd(now: Date = new Date()): string {
  const end = new Date(now.getTime() + 7 * 86_400_000);
  end.setMinutes(0, 0, 0);
  end.setHours(end.getHours() + 1);
  return toLocalInput(end);
}

/** The earliest and latest ends the form takes, as `datetime-local` bounds. */
export function auctionEndBounds(now: Date = new Date()): { min: string; max: string } {
  return {
    min: toLocalInput(Math.ceil((now.getTime() + AUCTION_MIN_HOURS * 3_600_000) / 60_000) * 60_000),
    max: toLocalInput(Math.floor((now.getTime() + AUCTION_MAX_DAYS * 86_400_000) / 60_000) * 60_000),
  };
}

const endFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Characters as people count them (an emoji is one), as the server's length limits do. */
export const textLength = (text: string): number => [...text].length;

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * "125,000", "$125000", " 125 000 " → 125000; anything that is not a whole number → null.
 * Empty input gives null too (callers check emptiness first).
 */
export function parseWholeNumber(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/[,\s]/g, '');
  if (!/^\d{1,9}$/.test(cleaned)) return null;
  return Number(cleaned);
}

/** Each listing field alone, to check one as it is typed. */
const singleFieldSchemas = new Map<string, TSchema>(
  Object.entries<TSchema>({ ...listingFields, reservePrice: ReservePrice }).map(([name, schema]) => [name, Type.Object({ [name]: schema })]),
);

/** The schema's sentence for `value` in field `name` (`undefined`: the field was left empty). */
function schemaMessage(name: string, value: unknown): string | undefined {
  const schema = singleFieldSchemas.get(name);
  if (!schema) return undefined;
  return checkAgainst(schema, value === undefined ? {} : { [name]: value })[0]?.message;
}

/** A number as typed: the whole number, the text itself when it is not one (the schema words it), undefined when empty. */
function typedNumber(text: string): number | string | undefined {
  if (!text.trim()) return undefined;
  return parseWholeNumber(text) ?? text;
}

/** The message for one field, or undefined when it is fine. Whitespace-only text counts as empty. */
export function fieldError(field: ListingField, values: ListingFormValues, now: Date = new Date()): string | undefined {
  switch (field) {
    case 'make':
    case 'model':
    case 'location':
    case 'description':
      return schemaMessage(field, values[field].trim());
    case 'year': {
      if (!values.year.trim()) return schemaMessage('year', undefined);
      const year = /^\s*\d{4}\s*$/.test(values.year) ? Number(values.year) : values.year;
      if (schemaMessage('year', year) || (typeof year === 'number' && year > latestModelYear(now))) return modelYearMessage(now);
      return undefined;
    }
    case 'bodyStyle':
    case 'condition':
      return schemaMessage(field, values[field]);
    case 'price': {
      if (!values.price.trim() && values.saleType === 'auction') return 'Enter the starting bid';
      return schemaMessage('price', typedNumber(values.price));
    }
    case 'mileage':
      return schemaMessage('mileage', typedNumber(values.mileage));
    case 'features':
      return schemaMessage('features', values.features.map((f) => f.trim()));
    case 'saleType':
      return undefined;
    case 'auctionEnds': {
      if (values.saleType !== 'auction') return undefined;
      if (!values.auctionEnds.trim()) return 'Choose when the auction ends';
      const end = parseLocalInput(values.auctionEnds);
      if (!end) return 'Enter a date and a time';
      const earliest = now.getTime() + AUCTION_MIN_HOURS * 3_600_000;
      if (end.getTime() < earliest) {
        return `An auction runs at least ${AUCTION_MIN_HOURS} hours: choose an end after ${endFormat.format(earliest)}`;
      }
      if (end.getTime() > now.getTime() + AUCTION_MAX_DAYS * 86_400_000) return `An auction may run at most ${AUCTION_MAX_DAYS} days`;
      return undefined;
    }
    case 'reservePrice': {
      if (values.saleType !== 'auction' || !values.reservePrice.trim()) return undefined;
      const reserve = typedNumber(values.reservePrice);
      const broken = schemaMessage('reservePrice', reserve);
      if (broken) return broken;
      const start = parseWholeNumber(values.price);
      if (start !== null && typeof reserve === 'number' && reserve < start) return 'The reserve cannot be below the starting bid';
      return undefined;
    }
  }
}

/** Every problem of the given fields (all of them by default), in form order. */
export function validateListing(
  values: ListingFormValues,
  fields: readonly ListingField[] = LISTING_FIELDS,
  now: Date = new Date(),
): ListingErrors {
  const errors: ListingErrors = {};
  for (const field of fields) {
    const message = fieldError(field, values, now);
    if (message) errors[field] = message;
  }
  return errors;
}

/** Why a feature cannot be added (too long, a repeat, the list is full), or undefined. */
export function featureError(text: string, features: readonly string[]): string | undefined {
  const feature = text.trim();
  if (!feature) return 'Type a feature first';
  if (textLength(feature) > LISTING_LIMITS.feature) return `A feature must be at most ${LISTING_LIMITS.feature} characters`;
  if (features.some((f) => f.trim().toLowerCase() === feature.toLowerCase())) return 'That feature is already listed';
  if (features.length >= LISTING_LIMITS.features) return `List at most ${LISTING_LIMITS.features} features`;
  return undefined;
}

/** The `POST /api/cars` body of valid values (call `validateListing` first). */
export function toNewListing(values: ListingFormValues, draft: boolean): NewListing {
  return {
    make: values.make.trim(),
    model: values.model.trim(),
    year: Number(values.year.trim()),
    price: parseWholeNumber(values.price) ?? 0,
    mileage: parseWholeNumber(values.mileage) ?? 0,
    condition: values.condition as Condition,
    location: values.location.trim(),
    description: values.description.trim(),
    features: values.features.map((f) => f.trim()).filter(Boolean),
    bodyStyle: values.bodyStyle as BodyStyle,
    ...(values.saleType === 'auction' ? { auction: toAuction(values) } : {}),
    ...(draft ? { draft: true } : {}),
  };
}

/** The auction of valid values: the end in UTC, the reserve only when set. */
function toAuction(values: ListingFormValues): NonNullable<NewListing['auction']> {
  const end = parseLocalInput(values.auctionEnds);
  const reserve = values.reservePrice.trim() ? parseWholeNumber(values.reservePrice) : null;
  return { endsAt: end ? end.toISOString() : '', ...(reserve !== null ? { reservePrice: reserve } : {}) };
}

/** A listing as its page reads it or as it was sent; `auction` is present (non-null) for an auction, its reserve only in the seller's own view. */
type EditableListing = Pick<CarDetail, 'make' | 'model' | 'year' | 'bodyStyle' | 'condition' | 'price' | 'mileage' | 'location' | 'description' | 'features'> & {
  auction?: Pick<AuctionDetail, 'endsAt' | 'reservePrice'> | null;
};

const isBodyStyle = (v: string): v is BodyStyle => BODY_STYLES.some((b) => b.value === v);
const isCondition = (v: string): v is Condition => (CONDITIONS as readonly string[]).includes(v);

/** The form filled from a listing (the edit page). */
export function listingFormValues(car: EditableListing): ListingFormValues {
  return {
    make: car.make,
    model: car.model,
    year: String(car.year),
    bodyStyle: isBodyStyle(car.bodyStyle) ? car.bodyStyle : '',
    condition: isCondition(car.condition) ? car.condition : '',
    price: integerFormat.format(car.price),
    mileage: integerFormat.format(car.mileage),
    location: car.location,
    description: car.description,
    features: [...car.features],
    saleType: car.auction ? 'auction' : 'fixed',
    auctionEnds: car.auction ? toLocalInput(Date.parse(car.auction.endsAt)) : '',
    reservePrice: car.auction?.reservePrice != null ? integerFormat.format(car.auction.reservePrice) : '',
  };
}

/** Only the editable fields that differ from `car` (valid values assumed). */
export function listingChanges(values: ListingFormValues, car: EditableListing): ListingEdit {
  const next = toNewListing(values, false);
  const changes: ListingEdit = {};
  if (next.price !== car.price) changes.price = next.price;
  if (next.mileage !== car.mileage) changes.mileage = next.mileage;
  if (next.condition !== car.condition) changes.condition = next.condition;
  if (next.location !== car.location) changes.location = next.location;
  if (next.description !== car.description) changes.description = next.description;
  if (next.features.length !== car.features.length || next.features.some((f, i) => f !== car.features[i])) {
    changes.features = next.features;
  }
  return changes;
}

/**
 * Splits a `details` list (`[{field, message}]`) into messages per form field and the rest.
 * `features.3` belongs to `features`. Anything that is not such a list gives nothing.
 */
export function errorsFromDetails(details: unknown): { fields: ListingErrors; other: string[] } {
  // The auction's parts come as `auction.endsAt` and `auction.reservePrice`.
  return detailsByField(details, LISTING_FIELDS, (path) => (path[0] === 'auction' ? (path[1] === 'reservePrice' ? 'reservePrice' : 'auctionEnds') : path[0]));
}
