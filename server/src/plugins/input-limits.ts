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

/** The path of the first string under `value` that holds the NUL character, or null. */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\0')) return `${path ? `${path}.` : ''}${key.replaceAll('\0', '\\0')}`;
      const found = findNul(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return null;
}

/**
 * One place for what every route must refuse whatever its own schema says: NUL in any text
 * (PostgreSQL cannot store it), integers outside the database's range, unbounded strings and
 * arrays. Body size is capped by the server's body limit.
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
      if (findNul(request.params)) throw notFound('Not found');
      for (const [part, value] of [
        ['querystring', request.query],
        ['body', request.body],
      ] as const) {
        const field = findNul(value);
        if (field) throw validationFailed([{ field: part === 'body' ? field : `${part}.${field}`, message: `${field} must not contain the NUL character` }]);
      }
    });
  },
  { name: 'input-limits' },
);
