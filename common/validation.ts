import type { TSchema } from 'typebox';
import { Format } from 'typebox/format';
import { Value } from 'typebox/value';

/**
 * One way to turn a schema violation into words, for the server (its validator's issues become
 * the 400's `details`) and for the forms (the same schema checked as the person types), so both
 * say the same sentence for the same mistake.
 */

/**
 * Formats whose meaning the product decides, so both validators read them alike: the server
 * registers these with its validator, and they replace TypeBox's own for the forms.
 * An address: a dot-separated local part of the usual characters, `@`, and a domain of at least
 * two labels of letters, digits and inner hyphens.
 */
const EMAIL_PATTERN =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
export const SHARED_FORMATS: Record<string, (value: string) => boolean> = {
  email: (value) => EMAIL_PATTERN.test(value),
};
for (const [name, check] of Object.entries(SHARED_FORMATS)) Format.Set(name, check);

/** One entry of a 400 `VALIDATION_FAILED` answer's `details`. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** What a JSON-schema validator reports (Ajv on the server, TypeBox's `Value.Errors` in forms). */
export interface SchemaIssue {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/**
 * The sentence a field shows for a broken rule, beside the field in its schema:
 * `{ 'x-messages': { maxLength: 'Make must be at most 60 characters', default: '...' } }`.
 * `default` covers every rule without its own sentence. An OpenAPI extension, so validators
 * and the API documentation pass it through untouched.
 */
export type FieldMessages = Partial<Record<string, string>> & { default?: string };
export const MESSAGES_KEY = 'x-messages';

/** Every problem of `value` against `schema`, one per field, in the schema's words. */
export function checkAgainst(schema: TSchema, value: unknown): FieldIssue[] {
  return describeIssues(schema, [...Value.Errors(schema, value)] as SchemaIssue[]);
}

/** `checkAgainst` as a map from field to its message (forms show one message per field). */
export function issuesByField(schema: TSchema, value: unknown): Record<string, string> {
  return Object.fromEntries(checkAgainst(schema, value).map((issue) => [issue.field, issue.message]));
}

/**
 * The issues of one request part (`context`: body, querystring, params) as the contract's
 * details: one per field, the first reported. Both validators' shapes are read: Ajv names one
 * missing or extra property per issue, TypeBox lists them.
 */
export function describeIssues(schema: unknown, issues: readonly SchemaIssue[], context = 'body'): FieldIssue[] {
  const byField = new Map<string, FieldIssue>();
  for (const issue of issues) {
    const path = pathOf(issue.instancePath);
    // A nullable field that is not null: what its value broke, not that it is not null either.
    if (issue.keyword === 'anyOf' || (issue.keyword === 'type' && issue.params?.type === 'null')) continue;
    for (const { field, rule, limit, propertyPath } of expand(issue, path)) {
      const name = field || context;
      if (byField.has(name)) continue;
      const own = messagesAt(schema, propertyPath);
      const message = own?.[rule] ?? own?.default ?? defaultMessage(name, rule, limit, issue.params ?? {});
      byField.set(name, { field: name, message });
    }
  }
  return [...byField.values()];
}

interface ExpandedIssue {
  field: string;
  rule: string;
  limit: unknown;
  propertyPath: string[];
}

function expand(issue: SchemaIssue, path: string[]): ExpandedIssue[] {
  const params = issue.params ?? {};
  const keyword = issue.keyword ?? 'invalid';
  const join = (name: string) => [...path, name].join('.');
  if (keyword === 'required') {
    const missing = typeof params.missingProperty === 'string' ? [params.missingProperty] : asStrings(params.requiredProperties);
    return missing.map((name) => ({ field: join(name), rule: 'required', limit: undefined, propertyPath: [...path, name] }));
  }
  if (keyword === 'additionalProperties') {
    const extra = typeof params.additionalProperty === 'string' ? [params.additionalProperty] : asStrings(params.additionalProperties);
    return extra.map((name) => ({ field: join(name), rule: 'additionalProperties', limit: undefined, propertyPath: [] }));
  }
  // TypeBox reports an extra property twice: as `additionalProperties` and as a `false` schema.
  if (keyword === 'boolean') return [];
  return [{ field: path.join('.'), rule: keyword, limit: params.limit, propertyPath: path }];
}

const asStrings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

function pathOf(instancePath: string | undefined): string[] {
  return (instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The `x-messages` of the schema found by following `path` (properties, list items, nullable unions). */
function messagesAt(schema: unknown, path: readonly string[]): FieldMessages | undefined {
  let node = schema as Record<string, unknown> | undefined;
  for (const part of path) {
    if (!node) return undefined;
    node = unwrapNullable(node);
    const properties = node.properties as Record<string, Record<string, unknown>> | undefined;
    node = properties?.[part] ?? (/^\d+$/.test(part) ? (node.items as Record<string, unknown> | undefined) : undefined);
  }
  if (!node) return undefined;
  return (node[MESSAGES_KEY] ?? unwrapNullable(node)[MESSAGES_KEY]) as FieldMessages | undefined;
}

function unwrapNullable(node: Record<string, unknown>): Record<string, unknown> {
  const branches = node.anyOf as Record<string, unknown>[] | undefined;
  return branches?.find((branch) => branch.type !== 'null') ?? node;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'a valid email address',
  'date-time': 'a date and time (ISO 8601, e.g. 2026-06-08T18:00:00Z)',
  uri: 'a web address',
};

function defaultMessage(field: string, rule: string, limit: unknown, params: Record<string, unknown>): string {
  switch (rule) {
    case 'required':
      return `${field} is required`;
    case 'additionalProperties':
      return `${field} is not an allowed field`;
    case 'type': {
      const type = Array.isArray(params.type) ? params.type[0] : params.type;
      return `${field} must be ${TYPE_WORDS[String(type)] ?? String(type)}`;
    }
    case 'minLength':
      return limit === 1 ? `${field} must not be empty` : `${field} must be at least ${String(limit)} characters`;
    case 'maxLength':
      return `${field} must be at most ${String(limit)} characters`;
    case 'minimum':
      return `${field} must be at least ${String(limit)}`;
    case 'maximum':
      return `${field} must be at most ${String(limit)}`;
    case 'exclusiveMinimum':
      return `${field} must be more than ${String(limit)}`;
    case 'exclusiveMaximum':
      return `${field} must be less than ${String(limit)}`;
    case 'minItems':
      return `${field} must have at least ${String(limit)} items`;
    case 'maxItems':
      return `${field} must have at most ${String(limit)} items`;
    case 'enum':
    case 'const': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [params.allowedValue];
      return `${field} must be one of: ${allowed.map(String).join(', ')}`;
    }
    case 'format':
      return `${field} must be ${FORMAT_WORDS[String(params.format)] ?? `in the ${String(params.format)} format`}`;
    case 'pattern':
      return params.pattern === '\\S' ? `${field} must not be blank` : `${field} is not in the expected format`;
    default:
      return `${field} is invalid`;
  }
}
