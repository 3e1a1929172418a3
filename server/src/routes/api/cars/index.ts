import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { AppError, notFound, validationFailed } from '../../../lib/errors.ts';
import { unsupportedImage } from '../../../services/photos/photo-processing.ts';
import { valueCar } from '../../../services/valuation.ts';
import { idempotencyClaim } from '../idempotency-header.ts';
import dossierRoutes from './dossier.ts';
import { pathId } from '../path-id.ts';
import { readerOf } from '../reader.ts';
import { CarQuestionsSchema } from '@common/schemas/chat.ts';
import { Envelope, errorResponses, type DeclaredError } from '@common/schemas/envelope.ts';
import { IdParam, IdempotencyHeaders } from '@common/schemas/kit.ts';
import { CarDetailSchema, CarsPageSchema, GallerySchema, ValuationSchema, type CarDetail } from '@common/schemas/cars.ts';
import { OrderWithEventsSchema } from '@common/schemas/orders.ts';
import { AcceptBidSchema, ListingEditSchema, ListingQuerySchema, NewListingSchema, PhotoIndexParams, PhotoOrderSchema, criteriaProblems } from '@common/schemas/listing.ts';
import { DEFAULT_LISTING_FILTER, DEFAULT_LISTING_SORT, DEFAULT_PAGE_SIZE, PHOTO_LIMITS, PHOTO_MAX_SIZE, PHOTO_TYPE_NAMES, carVisibleTo } from '@common/listing.ts';
import { isStaff } from '@common/back-office.ts';
import { ErrorCode } from '@common/error-codes.ts';

const CarIdParams = IdParam('id');
const ImagesBody = Envelope(GallerySchema);
const security = [{ bearerAuth: [] }];

const carRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.cars;
  const listings = app.services.listings;
  const carId = (raw: string) => pathId(raw, 'Car not found');

  app.get(
    '/',
    {
      schema: {
        tags: ['cars'],
        summary: 'List cars',
        description: 'Filters combine: make and model match exactly (case does not matter), years and prices are inclusive ranges. A value out of range or of the wrong type, or a range upside down (minYear above maxYear), is a 400 naming the field.',
        querystring: ListingQuerySchema,
        response: { 200: Envelope(CarsPageSchema) },
      },
    },
    async (request) => {
      const { filter = DEFAULT_LISTING_FILTER, sort = DEFAULT_LISTING_SORT, page = 1, limit = DEFAULT_PAGE_SIZE, ...criteria } = request.query;
      const problems = criteriaProblems(criteria);
      if (problems.length > 0) throw validationFailed(problems);
      return { data: await service.list({ ...criteria, filter, sort, page, limit }) };
    },
  );

  app.get(
    '/:id',
    {
      preHandler: app.optionalAuthentication,
      schema: {
        tags: ['cars'],
        summary: 'Get one car with its seller, gallery, features and reviews (a draft only for its seller; a hidden car for its seller and staff)',
        params: CarIdParams,
        response: { 200: Envelope(CarDetailSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => ({ data: await service.get(carId(request.params.id), request.session?.userId ?? null, request.session ? isStaff(request.session.role) : false) }),
  );

  app.get(
    '/:id/questions',
    {
      preHandler: app.optionalAuthentication,
      schema: {
        tags: ['cars', 'chat'],
        summary: "The car's Seller Q&A: visible top-level questions with the seller's visible replies as answers; answered first, then newest first",
        params: CarIdParams,
        response: { 200: Envelope(CarQuestionsSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => ({ data: { questions: await app.services.chat.questions(carId(request.params.id), readerOf(request)) } }),
  );

  app.get(
    '/:id/valuation',
    {
      schema: {
        tags: ['cars'],
        summary: "How the car's market value is estimated: the comparable cars used and the range they give",
        description:
          'Comparables are cars of the same make and model within two model years: listings live now and sales completed here, each price adjusted to this car\'s year (5% a year) and mileage (0.5% per 1,000 miles, at most 30%). The estimate is their median, the range their middle half. With fewer than three comparables there is no estimate (estimate null); a sample-catalogue car then keeps its reference value (basis "reference").',
        params: CarIdParams,
        response: { 200: Envelope(ValuationSchema), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request) => {
      const valued = await valueCar(app.db, carId(request.params.id));
      if (!valued || !carVisibleTo(valued.car.status, { isSeller: false, isStaff: false })) throw notFound('Car not found');
      const { car, valuation } = valued;
      return {
        data: {
          estimate: valuation?.estimate ?? null,
          low: valuation?.low ?? null,
          high: valuation?.high ?? null,
          basis: valuation ? ('comparables' as const) : car.marketValueBasis === 'reference' ? ('reference' as const) : null,
          marketValue: valuation?.estimate ?? (car.marketValueBasis === 'reference' ? car.marketValue : null),
          comparables: (valuation?.comparables ?? []).map((c) => ({ ...c, soldAt: c.soldAt?.toISOString() ?? null })),
          computedAt: new Date().toISOString(),
        },
      };
    },
  );

  app.post(
    '/',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['selling'],
        summary: 'List a car for sale (signed in, verified email); the first listing creates your seller profile',
        description:
          'The market value is estimated by the server, never sent. With draft: true the listing stays off the market until POST /api/cars/{id}/publish (add the photos first). Unknown fields: 400.',
        security,
        headers: IdempotencyHeaders,
        body: NewListingSchema,
        response: { 201: Envelope(CarDetailSchema) },
      },
    },
    async (request, reply) => {
      const session = request.session!;
      const detail = await listings.create({ userId: session.userId, name: session.name }, request.body, idempotencyClaim(request));
      return reply.status(201).send({ data: detail });
    },
  );

  app.patch(
    '/:id',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['selling'],
        summary: "Change your listing's price, description, features, mileage, location or condition",
        description: 'Only the seller (anyone else: 404). 409 LISTING_LOCKED once an escrow order holds the payment, or after withdrawal. A lower price notifies the car\'s watchers.',
        security,
        headers: IdempotencyHeaders,
        params: CarIdParams,
        body: ListingEditSchema,
        response: { 200: Envelope(CarDetailSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.LISTING_LOCKED, ErrorCode.AUCTION_HAS_BIDS) },
      },
    },
    async (request) => ({ data: await listings.update(request.session!.userId, carId(request.params.id), request.body, idempotencyClaim(request)) }),
  );

  /** The seller moves their listing (withdraw, publish): the answer is the car as it now stands. */
  const sellerMove = (
    method: 'DELETE' | 'POST',
    url: string,
    texts: { summary: string; description?: string },
    errors: readonly DeclaredError[],
    move: (userId: number, carId: number) => Promise<CarDetail>,
  ) =>
    app.route({
      method,
      url,
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['selling'],
        ...texts,
        security,
        params: CarIdParams,
        response: { 200: Envelope(CarDetailSchema), ...errorResponses(ErrorCode.NOT_FOUND, ...errors) },
      },
      handler: async (request) => ({ data: await move(request.session!.userId, carId(request.params.id)) }),
    });
  sellerMove(
    'DELETE',
    '/:id',
    {
      summary: 'Withdraw your listing (status withdrawn); unpaid orders for it are cancelled, open offers declined and watchers told',
      description: 'Only the seller (anyone else: 404). 409 LISTING_LOCKED once an escrow order holds the payment. Withdrawing again changes nothing.',
    },
    // A hidden listing stays where the back office put it.
    [ErrorCode.LISTING_LOCKED, ErrorCode.INVALID_TRANSITION],
    (userId, id) => listings.withdraw(userId, id),
  );
  sellerMove('POST', '/:id/publish', { summary: 'Put a draft listing on the market' }, [ErrorCode.NOT_A_DRAFT, ErrorCode.AUCTION_ENDS_TOO_SOON], (userId, id) => listings.publish(userId, id));

  app.delete(
    '/:id/images/:index',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['selling'],
        summary: 'Remove the photo at a position of the gallery (0 is the first)',
        security,
        params: PhotoIndexParams,
        response: { 200: ImagesBody, ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.LISTING_LOCKED) },
      },
    },
    async (request) => {
      const index = /^\d{1,2}$/.test(request.params.index) ? Number(request.params.index) : null;
      if (index === null) throw notFound('Photo not found');
      return { data: await listings.removePhoto(request.session!.userId, carId(request.params.id), index) };
    },
  );

  app.put(
    '/:id/images/order',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['selling'],
        summary: 'Reorder the gallery: list every current position once, the new first photo first',
        security,
        params: CarIdParams,
        body: PhotoOrderSchema,
        response: { 200: ImagesBody, ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.LISTING_LOCKED) },
      },
    },
    async (request) => ({ data: await listings.reorderPhotos(request.session!.userId, carId(request.params.id), request.body.order) }),
  );

  app.post(
    '/:id/accept-bid',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['selling'],
        summary: 'Accept the highest bid: an escrow order for that bidder at their amount, with the smallest plan that covers it',
        description:
          'Only the seller (anyone else: 404). 409 BID_NOT_HIGHEST unless bidId is the current highest bid; 409 CAR_NOT_AVAILABLE when the car is off the market; 409 ABOVE_ESCROW_LIMIT above $1,000,000; 409 ORDER_EXISTS when that bidder already has an open order for the car. Both parties are notified; the car leaves the market once the buyer pays.',
        security,
        headers: IdempotencyHeaders,
        params: CarIdParams,
        body: AcceptBidSchema,
        response: {
          201: Envelope(OrderWithEventsSchema),
          ...errorResponses(
            ErrorCode.NOT_FOUND,
            ErrorCode.AUCTION_IN_PROGRESS,
            ErrorCode.ACCEPT_WINDOW_CLOSED,
            ErrorCode.CAR_NOT_AVAILABLE,
            ErrorCode.BID_NOT_HIGHEST,
            ErrorCode.ABOVE_ESCROW_LIMIT,
            ErrorCode.ORDER_EXISTS,
          ),
        },
      },
    },
    async (request, reply) => {
      const order = await app.services.orders.acceptBid({ userId: request.session!.userId }, carId(request.params.id), request.body.bidId, idempotencyClaim(request));
      return reply.status(201).send({ data: order });
    },
  );

  await app.register(dossierRoutes);

  // Photo uploads: multipart in a scope of their own, so the rest of the API stays JSON-only.
  await app.register(async (plain) => {
    const uploads = plain.withTypeProvider<TypeBoxTypeProvider>();
    await uploads.register(multipart, {
      limits: { fileSize: PHOTO_LIMITS.maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 20 },
      throwFileSizeLimit: true,
    });
    uploads.post(
      '/:id/images',
      {
        preHandler: app.requireVerifiedUser,
        schema: {
          tags: ['selling'],
          summary: 'Add a photo to your listing: multipart/form-data with one file in the field "file"',
          description: `${PHOTO_TYPE_NAMES}, judged by content (anything else: 415), at most ${PHOTO_MAX_SIZE} (413) and ${PHOTO_LIMITS.maxPhotos} photos per car (409 TOO_MANY_PHOTOS). Decoded with a pixel limit (a decompression bomb: 400), stored re-encoded as WebP and JPEG in a card size (about 640 wide) and a gallery size (about 1600 wide), with no metadata. The file name is ignored.`,
          security,
          consumes: ['multipart/form-data'],
          params: CarIdParams,
          response: {
            201: ImagesBody,
            // BAD_REQUEST: a part the multipart parser refuses (a field named __proto__).
            ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.LISTING_LOCKED, ErrorCode.TOO_MANY_PHOTOS, ErrorCode.INVALID_IMAGE, ErrorCode.IMAGE_TOO_LARGE, ErrorCode.BAD_REQUEST),
          },
        },
      },
      async (request, reply) => {
        const id = carId(request.params.id);
        if (!request.isMultipart()) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send the photo as multipart/form-data in the field "file"');
        const part = await request.file().catch(malformedUpload);
        if (!part || part.fieldname !== 'file') throw new AppError(ErrorCode.VALIDATION_FAILED, 'Send the photo in the field "file"', [{ field: 'file', message: 'file is required' }]);
        const body = await part.toBuffer().catch(malformedUpload);
        if (body.length === 0) throw unsupportedImage();
        return reply.status(201).send({ data: await listings.addPhoto(request.session!.userId, id, body) });
      },
    );
  });
};

/**
 * The multipart parser's own errors ("Unexpected end of multipart data", a malformed part header)
 * carry no status: they are the client's broken body, not our failure. Limit errors pass through.
 */
function malformedUpload(error: { statusCode?: number }): never {
  if (error.statusCode) throw error;
  throw new AppError(ErrorCode.INVALID_BODY, 'The upload is not a complete multipart/form-data body', [{ field: 'file', message: 'the upload was cut short or malformed' }]);
}

export default carRoutes;
