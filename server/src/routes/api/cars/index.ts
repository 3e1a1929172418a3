import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../../lib/errors.ts';
import { Envelope, ErrorBody, commonErrors } from '../../../lib/schemas.ts';
import { DEFAULT_PAGE_SIZE, parseId } from '../../../services/cars.ts';
import { CarDetailSchema, CarListItemSchema, ListingQuerySchema, PaginationSchema } from './schemas.ts';

const carRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.cars;

  app.get(
    '/',
    {
      schema: {
        tags: ['cars'],
        summary: 'List cars',
        querystring: ListingQuerySchema,
        response: {
          200: Envelope(Type.Object({ cars: Type.Array(CarListItemSchema), pagination: PaginationSchema })),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const { search, filter = 'all', sort = 'price-low', page = 1, limit = DEFAULT_PAGE_SIZE } = request.query;
      return { data: await service.list({ search, filter, sort, page, limit }) };
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['cars'],
        summary: 'Get one car with its seller, gallery, features and reviews',
        params: Type.Object({ id: Type.String() }),
        response: { 200: Envelope(CarDetailSchema), 404: ErrorBody, ...commonErrors },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      if (id === null) throw notFound('Car not found');
      return { data: await service.get(id) };
    },
  );
};

export default carRoutes;
