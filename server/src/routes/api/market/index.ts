import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { isStaff } from '@common/back-office.ts';
import { DEFAULT_PAGE_SIZE } from '@common/listing.ts';
import { SAVED_SEARCH_LIMIT } from '@common/market-data.ts';
import {
  NewSavedSearchSchema,
  PriceHistorySchema,
  ResultsPageSchema,
  ResultsQuerySchema,
  SavedSearchDeletedSchema,
  SavedSearchEditSchema,
  SavedSearchSchema,
  SavedSearchesSchema,
  UnsubscribeBodySchema,
  UnsubscribeQuerySchema,
  UnsubscribedSchema,
} from '@common/schemas/discovery.ts';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import { IdParam } from '@common/schemas/kit.ts';
import { AppError, validationFailed } from '../../../lib/errors.ts';
import { pathId } from '../path-id.ts';
import { ErrorCode } from '@common/error-codes.ts';

/**
 * Saved searches with their alerts, a car's price history and sold results (contract
 * §"Discovery and market data").
 */
const marketRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const searches = app.services.savedSearches;
  const market = app.services.marketData;
  const security = [{ bearerAuth: [] }];
  const searchId = (raw: string) => pathId(raw, 'Saved search not found');
  const SearchIdParams = IdParam('id');

  app.post(
    '/saved-searches',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['saved searches'],
        summary: 'Save a search with its alerts',
        description: `query takes the listing's criteria (GET /api/cars) plus auctionsOnly; a range upside down is a 400 naming the field. At most ${SAVED_SEARCH_LIMIT} per account: 409 LIMIT_REACHED. instant: a notification and one email within a minute of a matching publication or price drop; daily: one digest email a day (DIGEST_HOUR_UTC). Never for your own listings; a car is alerted once per search, again only when its price drops below the price it was alerted at.`,
        security,
        body: NewSavedSearchSchema,
        response: { 201: Envelope(SavedSearchSchema), ...errorResponses(ErrorCode.LIMIT_REACHED) },
      },
    },
    async (request, reply) => reply.status(201).send({ data: await searches.create(request.session!.userId, request.body) }),
  );

  app.get(
    '/saved-searches',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['saved searches'],
        summary: 'Your saved searches, newest first',
        security,
        response: { 200: Envelope(SavedSearchesSchema) },
      },
    },
    async (request) => ({ data: { searches: await searches.list(request.session!.userId) } }),
  );

  app.patch(
    '/saved-searches/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['saved searches'],
        summary: "Rename a saved search, change its criteria or its alerts (another user's: 404)",
        security,
        params: SearchIdParams,
        body: SavedSearchEditSchema,
        response: { 200: Envelope(SavedSearchSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => ({ data: await searches.update(request.session!.userId, searchId(request.params.id), request.body) }),
  );

  app.delete(
    '/saved-searches/:id',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['saved searches'],
        summary: "Delete a saved search (another user's: 404)",
        security,
        params: SearchIdParams,
        response: { 200: Envelope(SavedSearchDeletedSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => {
      const id = searchId(request.params.id);
      await searches.remove(request.session!.userId, id);
      return { data: { id, deleted: true } };
    },
  );

  // The one-click unsubscribe of RFC 8058: mail clients POST `List-Unsubscribe=One-Click` to the
  // header's URL, which carries the token, as multipart/form-data (what the RFC recommends) or as
  // a urlencoded form; the web page posts JSON {token}.
  await app.register(async (unsubscribe) => {
    unsubscribe.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1_024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    await unsubscribe.register(multipart, { limits: { files: 0, fields: 5, fieldSize: 200, parts: 5, headerPairs: 20 } });
    unsubscribe.addHook('preValidation', async (request) => {
      if (request.isMultipart()) request.body = await multipartFields(request);
    });
    // A mail client or a person that opens the header's URL (a GET) sees the page that asks first:
    // only the POST changes anything, so a link scanner unsubscribes nobody.
    unsubscribe.withTypeProvider<TypeBoxTypeProvider>().get(
      '/saved-searches/unsubscribe',
      {
        // A redirect for browsers, not API: hidden from the OpenAPI document like the pages.
        schema: { hide: true, querystring: UnsubscribeQuerySchema },
      },
      async (request, reply) => reply.redirect(`/unsubscribe${request.query.token ? `?token=${encodeURIComponent(request.query.token)}` : ''}`, 303),
    );
    unsubscribe.withTypeProvider<TypeBoxTypeProvider>().post(
      '/saved-searches/unsubscribe',
      {
        schema: {
          tags: ['saved searches'],
          summary: "Stop a saved search's alerts from the link in its email (no sign-in)",
          description:
            'JSON {token}, or (RFC 8058 one-click, as mail clients send it) a multipart/form-data or urlencoded form with List-Unsubscribe=One-Click and the token in the query string. The search\'s alerts become off. A forged, altered or malformed token: 400, and nothing changes. The same URL opened in a browser (GET) answers 303 to the page /unsubscribe, which asks first.',
          querystring: UnsubscribeQuerySchema,
          body: UnsubscribeBodySchema,
          response: {
            200: Envelope(UnsubscribedSchema),
            // BAD_REQUEST: a form part the multipart parser refuses (a field named __proto__, a body cut short).
            ...errorResponses(ErrorCode.BAD_REQUEST),
          },
        },
      },
      async (request) => {
        const token = 'token' in request.body ? request.body.token : request.query.token;
        if (!token) throw validationFailed([{ field: 'token', message: 'This unsubscribe link is not valid' }]);
        return { data: await searches.unsubscribe(token) };
      },
    );
  });

  app.get(
    '/cars/:id/price-history',
    {
      preHandler: app.optionalAuthentication,
      schema: {
        tags: ['cars'],
        summary: "A car's asking price over time, oldest first: the price at publication, then one point per change",
        params: IdParam('id'),
        response: { 200: Envelope(PriceHistorySchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => {
      const viewer = { userId: request.session?.userId ?? null, isStaff: request.session ? isStaff(request.session.role) : false };
      return { data: { points: await market.priceHistory(pathId(request.params.id, 'Car not found'), viewer) } };
    },
  );

  app.get(
    '/results',
    {
      schema: {
        tags: ['cars'],
        summary: 'What cars sold for: every released escrow order, newest first (public; no buyer identity)',
        description: 'make and model match exactly, case aside; carId gives one car\'s sale (empty when it has none).',
        querystring: ResultsQuerySchema,
        response: { 200: Envelope(ResultsPageSchema) },
      },
    },
    async (request) => {
      const { page = 1, limit = DEFAULT_PAGE_SIZE, ...filters } = request.query;
      return { data: await market.results({ ...filters, page, limit }) };
    },
  );
};

export default marketRoutes;

/**
 * A multipart/form-data body's fields (a one-click unsubscribe's form). The parser's own errors on
 * a broken body ("Unexpected end of form", a malformed part header) carry no status: they are the
 * client's body, not our failure, so they answer 400; its limits (a file, too many fields) answer
 * 413 in this form's own words (the shared error handler's words for them are the photo upload's).
 */
async function multipartFields(request: FastifyRequest): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') fields[part.fieldname] = String(part.value);
    }
  } catch (error) {
    const statusCode = (error as { statusCode?: number }).statusCode;
    if (statusCode === 413) throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'The unsubscribe form takes at most 5 short fields and no file');
    if (statusCode) throw error;
    throw new AppError(ErrorCode.INVALID_BODY, 'The form is not a complete multipart/form-data body', [{ field: 'body', message: 'the form was cut short or malformed' }]);
  }
  return fields;
}
