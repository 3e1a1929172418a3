import type { FastifyBaseLogger } from 'fastify';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { SHARED_FORMATS } from '@common/validation.ts';

/**
 * Holds what the server sends (REST answers, Socket.IO pushes and acknowledgements) to the
 * shared schema it claims to follow, with every object closed: a field the schema lacks is a
 * mismatch (the serializer would drop it silently, so it never reaches a client) and so is a
 * missing required one. Off in production; every in-process test app turns it on, so the
 * tests fail on the first answer whose shape and schema part ways.
 */
export class ShapeCheck {
  readonly mismatches: ShapeMismatch[] = [];
  /** Each failure answered as declared, as `GET /api/cars/:id 404 NOT_FOUND`: what the tests provoked. */
  readonly answered = new Set<string>();

  /** The problems of `value` against `schema` as a closed shape, recorded; null when it matches. */
  check(where: string, schema: object, value: unknown): ShapeMismatch | null {
    const problems = problemsOf(schema, value);
    return problems.length === 0 ? null : this.record(where, problems);
  }

  record(where: string, problems: string[]): ShapeMismatch {
    const mismatch = { where, problems };
    this.mismatches.push(mismatch);
    return mismatch;
  }

  /** Every mismatch so far, one per line, for a failing test's message. */
  report(): string {
    return this.mismatches.map((m) => `${m.where}: ${m.problems.join('; ')}`).join('\n');
  }
}

/** How `value`, as JSON, departs from `schema` as a closed shape; empty when it matches. */
export function problemsOf(schema: object, value: unknown): string[] {
  // What a client receives is JSON: dates become strings and undefined fields disappear.
  const sent: unknown = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  const validate = validatorFor(schema);
  return validate(sent) ? [] : (validate.errors ?? []).map(describe);
}

export interface ShapeMismatch {
  /** The answer or push: `GET /api/cars/:id 200`, `socket bid:placed`. */
  where: string;
  problems: string[];
}

// One validator per schema for the whole process: test files build many apps from the same schemas.
const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, coerceTypes: false, useDefaults: false, removeAdditional: false });
addFormats.default(ajv);
for (const [name, check] of Object.entries(SHARED_FORMATS)) ajv.addFormat(name, check);
const bySchema = new WeakMap<object, ValidateFunction>();
const byText = new Map<string, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
  let validate = bySchema.get(schema);
  if (!validate) {
    const text = JSON.stringify(schema);
    validate = byText.get(text) ?? ajv.compile(closedSchema(schema) as object);
    byText.set(text, validate);
    bySchema.set(schema, validate);
  }
  return validate;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const SCHEMA_KEYWORDS = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];

/**
 * A copy of `schema` where every object that names its properties accepts no others, and an
 * `allOf` of objects is one object with the properties of all (closing each part alone would
 * refuse the fields of the others). Data inside the schema (`const`, `enum`, `examples`) is kept as is.
 */
export function closedSchema(schema: unknown, closeThis = true): unknown {
  if (!isNode(schema)) return schema;
  const node: Node = { ...schema };
  for (const key of SCHEMA_KEYWORDS) if (isNode(node[key])) node[key] = closedSchema(node[key]);
  for (const key of SCHEMA_LISTS) if (Array.isArray(node[key])) node[key] = (node[key] as unknown[]).map((part) => closedSchema(part));
  for (const key of SCHEMA_MAPS) {
    if (isNode(node[key])) node[key] = Object.fromEntries(Object.entries(node[key]).map(([name, part]) => [name, closedSchema(part)]));
  }
  if (Array.isArray(node.allOf)) {
    const parts = (node.allOf as unknown[]).map((part) => closedSchema(part, false));
    if (parts.every((part) => isNode(part) && isNode(part.properties))) {
      delete node.allOf;
      Object.assign(node, mergedObjects(parts as Node[]));
    } else {
      node.allOf = parts;
    }
  }
  const namesProperties = isNode(node.properties);
  if (closeThis && namesProperties && node.additionalProperties === undefined && node.patternProperties === undefined) node.additionalProperties = false;
  return node;
}

function mergedObjects(parts: Node[]): Node {
  const properties: Node = {};
  const required = new Set<string>();
  for (const part of parts) {
    for (const [name, property] of Object.entries(part.properties as Node)) {
      properties[name] = name in properties ? { allOf: [properties[name], property] } : property;
    }
    for (const name of (part.required as string[] | undefined) ?? []) required.add(name);
  }
  return { type: 'object', properties, ...(required.size > 0 ? { required: [...required] } : {}) };
}

function describe(error: ErrorObject): string {
  const at = error.instancePath || '(the body)';
  if (error.keyword === 'additionalProperties') return `${at} has ${String(error.params.additionalProperty)}, which the schema lacks`;
  if (error.keyword === 'required') return `${at} lacks ${String(error.params.missingProperty)}, which the schema requires`;
  // A failure code the route does not declare for this status reads as such.
  if (error.keyword === 'enum') return `${at} is ${JSON.stringify(error.data)}, not one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
  return `${at} ${error.message ?? error.keyword}`;
}

/**
 * Checks a pushed payload or an acknowledgement, when the app has a shape check. It has gone out
 * already (a push follows its commit), so a mismatch is logged and kept for the test to fail on.
 */
export function checkSent(app: { shapeCheck: ShapeCheck | null; log: FastifyBaseLogger }, where: string, schema: object, payload: unknown): void {
  const mismatch = app.shapeCheck?.check(where, schema, payload);
  if (mismatch) app.log.error({ mismatch }, 'a pushed payload does not match its schema');
}
