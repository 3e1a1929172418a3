import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { notFound, validationFailed } from '../lib/errors.ts';

/** Every integer is stored in a PostgreSQL `integer`; anything outside it is refused at the edge. */
export const INT_MIN = -2_147_483_648;
export const INT_MAX = 2_147_483_647;
/** Caps for strings and arrays a route's schema leaves open. */
export const DEFAULT_MAX_STRING = 10_000;
export const DEFAULT_MAX_ITEMS = 1_000;

type Schema = Record<string, unknown>;

/**
 * Puts the edge's bounds into a request schema where it sets none: integers within PostgreSQL's
 * range, strings and arrays of bounded length. Applied to every route's body, query and path
 * parameters as it is registered (so the OpenAPI document shows them too).
 */
export function applyInputLimits(schema: unknown, seen = new Set<unknown>()): void {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const node = schema as Schema;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('integer')) {
    node.minimum ??= INT_MIN;
    node.maximum ??= INT_MAX;
  }
  if (types.includes('number')) {
    node.minimum ??= -Number.MAX_SAFE_INTEGER;
    node.maximum ??= Number.MAX_SAFE_INTEGER;
  }
  if (types.includes('string') && node.enum === undefined && node.const === undefined) node.maxLength ??= DEFAULT_MAX_STRING;
  if (types.includes('array')) node.maxItems ??= DEFAULT_MAX_ITEMS;
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) value.forEach((item) => applyInputLimits(item, seen));
    else if (value && typeof value === 'object') applyInputLimits(value, seen);
  }
}

/** How deep a body or query may nest: far beyond any of our shapes, far below the stack's depth. */
export const MAX_INPUT_DEPTH = 32;
/** Values (objects, arrays, strings, numbers) one body may hold in all. */
export const MAX_INPUT_NODES = 50_000;
/** The longest property name accepted anywhere. */
export const MAX_KEY_LENGTH = 200;

/**
 * The first thing in `value` no route accepts, with where it is: a NUL character in any text
 * (PostgreSQL cannot store it), nesting deeper than MAX_INPUT_DEPTH, more than MAX_INPUT_NODES
 * values, or a property name longer than MAX_KEY_LENGTH. The walk is iterative and stops at the
 * first problem, so a hostile shape (10,000 levels deep, a million-item array) costs the server
 * no stack and little time.
 */
export function inputProblem(value: unknown): { field: string; message: string } | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    nodes += 1;
    const field = path || 'body';
    if (nodes > MAX_INPUT_NODES) return { field: 'body', message: `The request holds more than ${MAX_INPUT_NODES.toLocaleString('en-US')} values` };
    if (typeof current === 'string') {
      if (current.includes('\0')) return { field, message: `${field} must not contain the NUL character` };
      continue;
    }
    if (!current || typeof current !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return { field, message: `The request nests deeper than ${MAX_INPUT_DEPTH} levels` };
    if (Array.isArray(current)) {
      if (nodes + current.length > MAX_INPUT_NODES) return { field, message: `The request holds more than ${MAX_INPUT_NODES.toLocaleString('en-US')} values` };
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(current);
    if (nodes + entries.length > MAX_INPUT_NODES) return { field, message: `The request holds more than ${MAX_INPUT_NODES.toLocaleString('en-US')} values` };
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      const name = key.replaceAll('\0', '\\0');
      if (key.includes('\0')) return { field: path ? `${path}.${name}` : name, message: `${name} must not contain the NUL character` };
      if (key.length > MAX_KEY_LENGTH) return { field: path || 'body', message: `A property name is longer than ${MAX_KEY_LENGTH} characters` };
      stack.push({ value: item, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * One place for what every route must refuse whatever its own schema says: NUL in any text
 * (PostgreSQL cannot store it), nesting and volume that could be turned against the server,
 * integers outside the database's range, unbounded strings and arrays. Body size is capped by
 * the server's body limit; `__proto__` and `constructor.prototype` keys are refused by the JSON
 * parser (Fastify's default `onProtoPoisoning`/`onConstructorPoisoning: 'error'`) before this runs.
 */
export default fp(
  async function inputLimits(app: FastifyInstance) {
    app.addHook('onRoute', (route) => {
      const schema = route.schema as Record<string, unknown> | undefined;
      if (!schema) return;
      for (const part of ['body', 'querystring', 'params', 'headers']) applyInputLimits(schema[part]);
    });
    app.addHook('preValidation', async (request) => {
      // No record is named with a NUL, so such a path names nothing (and never reaches a query).
      if (inputProblem(request.params)) throw notFound();
      for (const [part, value] of [
        ['querystring', request.query],
        ['body', request.body],
      ] as const) {
        const problem = inputProblem(value);
        if (problem) throw validationFailed([{ field: part === 'body' ? problem.field : `${part}.${problem.field}`, message: problem.message }]);
      }
    });
  },
  { name: 'input-limits' },
);
