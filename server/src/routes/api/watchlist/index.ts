import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { WatchedCarsSchema, WatchStateSchema } from '@common/schemas/cars.ts';
import { WatchSchema } from '@common/schemas/commerce.ts';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { IdParam } from '@common/schemas/kit.ts';
import { pathId } from '../path-id.ts';

const watchlistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const watchlist = app.services.watchlist;
  const security = [{ bearerAuth: [] }];

  app.get(
    '/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['watchlist'],
        summary: 'Watched cars in the listing shape, most recently added first',
        security,
        response: { 200: Envelope(WatchedCarsSchema) },
      },
    },
    async (request) => ({ data: { cars: await watchlist.list(request.session!.userId) } }),
  );

  app.post(
    '/',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['watchlist'],
        summary: 'Watch a car; 201 when added, 200 when it was already watched',
        security,
        body: WatchSchema,
        response: {
          200: Envelope(WatchStateSchema),
          201: Envelope(WatchStateSchema),
          ...errorResponses(ErrorCode.NOT_FOUND),
        },
      },
    },
    async (request, reply) => {
      const { carId, added } = await watchlist.add(request.session!.userId, request.body.carId);
      return reply.status(added ? 201 : 200).send({ data: { carId, watching: true } });
    },
  );

  app.delete(
    '/:carId',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['watchlist'],
        summary: 'Stop watching a car (200 whether or not it was watched)',
        security,
        params: IdParam('carId'),
        response: { 200: Envelope(WatchStateSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => {
      const carId = pathId(request.params.carId, 'Car not found');
      await watchlist.remove(request.session!.userId, carId);
      return { data: { carId, watching: false } };
    },
  );
};

export default watchlistRoutes;
