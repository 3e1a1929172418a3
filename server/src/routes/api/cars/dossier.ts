import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { AppError } from '../../../lib/errors.ts';
import { pathId } from '../path-id.ts';
import { Envelope, errorResponses } from '@common/schemas/envelope.ts';
import { IdParam } from '@common/schemas/kit.ts';
import { CarDetailSchema } from '@common/schemas/cars.ts';
import { DocumentFieldsSchema, DocumentParams, DocumentSchema, DossierEditSchema, type DocumentFields } from '@common/schemas/dossier.ts';
import { DOCUMENT_KINDS, DOCUMENT_MAX_SIZE, DOCUMENT_TYPE_NAMES, DOSSIER_LIMITS } from '@common/dossier.ts';
import { checkAgainst } from '@common/validation.ts';
import { isStaff } from '@common/back-office.ts';
import { ErrorCode } from '@common/error-codes.ts';

const CarIdParams = IdParam('id');
const security = [{ bearerAuth: [] }];

/**
 * The listing's dossier (contract "The listing as a dossier, checked in escrow"): the seller
 * replaces its lists and VIN, adds and removes documents; anyone who may see the car reads a
 * document, served so that it never runs in the app's origin.
 */
const dossierRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const dossiers = app.services.dossiers;
  const carId = (raw: string) => pathId(raw, 'Car not found');
  const documentId = (raw: string) => pathId(raw, 'Document not found');

  app.put(
    '/:id/dossier',
    {
      bodyLimit: DOSSIER_LIMITS.editBodyBytes,
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['selling'],
        summary: "Replace your listing's VIN or chassis number, known flaws, modifications, included items and service history",
        description: `Each field given replaces the old one; a list entry with an \`id\` keeps that item (its id stays, so checklists name it), one without is new; at most ${DOSSIER_LIMITS.maxListItems} per list, item text 1 to ${DOSSIER_LIMITS.itemText} characters. The VIN: 17 characters without I, O or Q; a North American VIN (first character 1-5) must carry the right check digit (position 9) and the model-year character (position 10) of the car's year; a maker code (positions 1-3) the catalogue knows must be the car's make: else 400 naming \`vin\`. A service record's documentId must be one of the car's documents. Only the seller (anyone else: 404), while the car is a draft or listed and no order for it is funded (409 LISTING_LOCKED).`,
        security,
        params: CarIdParams,
        body: DossierEditSchema,
        response: { 200: Envelope(CarDetailSchema), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.LISTING_LOCKED) },
      },
    },
    async (request) => ({ data: await dossiers.edit(request.session!.userId, carId(request.params.id), request.body) }),
  );

  app.delete(
    '/:id/documents/:documentId',
    {
      preHandler: app.requireVerifiedUser,
      schema: {
        tags: ['selling'],
        summary: 'Remove a document from your listing (a service record that pointed at it keeps no invoice)',
        description: 'Only the seller (anyone else: 404), while the listing may change (409 LISTING_LOCKED). Orders keep the document in their frozen dossier by title and size.',
        security,
        params: DocumentParams,
        response: { 200: Envelope(Type.Object({ id: Type.Integer(), removed: Type.Literal(true) })), ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.LISTING_LOCKED) },
      },
    },
    async (request) => {
      const id = documentId(request.params.documentId);
      await dossiers.removeDocument(request.session!.userId, carId(request.params.id), id);
      return { data: { id, removed: true as const } };
    },
  );

  app.get(
    '/:id/documents/:documentId',
    {
      preHandler: app.optionalAuthentication,
      schema: {
        tags: ['cars'],
        summary: "Read one of a car's documents (public while the car is; a draft's for its seller, a hidden car's for its seller and staff)",
        description:
          'The file with its own content type (judged when it was uploaded), `X-Content-Type-Options: nosniff`, `Content-Disposition: inline` with a safe file name, and `Content-Security-Policy: sandbox`, so a document never runs in the app\'s origin.',
        params: DocumentParams,
        produces: ['application/pdf', 'image/jpeg', 'image/png'],
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The document' }), ...errorResponses(ErrorCode.NOT_FOUND) },
      },
    },
    async (request, reply) => {
      const session = request.session;
      const file = await dossiers.openDocument({ userId: session?.userId ?? null, isStaff: session ? isStaff(session.role) : false }, carId(request.params.id), documentId(request.params.documentId));
      return reply
        .header('content-type', file.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `inline; filename="${file.fileName}"`)
        .header('content-security-policy', 'sandbox')
        .header('cross-origin-resource-policy', 'same-origin')
        .header('cache-control', file.isPublic ? 'public, max-age=300' : 'private, no-store')
        .send(file.body);
    },
  );

  // Document uploads: multipart in a scope of their own, with the documents' limits.
  await app.register(async (plain) => {
    const uploads = plain.withTypeProvider<TypeBoxTypeProvider>();
    await uploads.register(multipart, {
      limits: { fileSize: DOSSIER_LIMITS.maxDocumentBytes, files: 1, fields: 2, parts: 3, fieldSize: 1024, headerPairs: 20 },
      throwFileSizeLimit: true,
    });
    uploads.post(
      '/:id/documents',
      {
        preHandler: app.requireVerifiedUser,
        schema: {
          tags: ['selling'],
          summary: 'Add a document to your listing: multipart/form-data with the fields "kind" and "title" and one file in "file"',
          description: `kind: ${DOCUMENT_KINDS.join(', ')}. ${DOCUMENT_TYPE_NAMES}, judged by content (anything else, an executable or HTML renamed .pdf included: 415), at most ${DOCUMENT_MAX_SIZE} (413) and ${DOSSIER_LIMITS.maxDocuments} documents per car (409 TOO_MANY_DOCUMENTS). A PDF is parsed completely (@cantoo/pdf-lib) and refused (400 INVALID_DOCUMENT) when encrypted, truncated or damaged, or when it carries JavaScript, an automatic (/OpenAction, /AA) or launch action, or embedded files. An image is decoded and encoded again without metadata. The file name is kept only as a safe download name (letters, digits, dots, hyphens; no path). Only the seller (404), while the listing may change (409 LISTING_LOCKED).`,
          security,
          consumes: ['multipart/form-data'],
          params: CarIdParams,
          response: {
            201: Envelope(DocumentSchema),
            // BAD_REQUEST: a part the multipart parser refuses (a field named __proto__).
            ...errorResponses(ErrorCode.NOT_FOUND, ErrorCode.LISTING_LOCKED, ErrorCode.TOO_MANY_DOCUMENTS, ErrorCode.INVALID_DOCUMENT, ErrorCode.BAD_REQUEST),
          },
        },
      },
      async (request, reply) => {
        const id = carId(request.params.id);
        if (!request.isMultipart()) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send the document as multipart/form-data with the file in the field "file"');
        const fields: Record<string, string> = {};
        let file: { body: Buffer; name: string | undefined } | null = null;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'file') {
                await part.toBuffer();
                continue;
              }
              file = { body: await part.toBuffer(), name: part.filename };
            } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          }
        } catch (error) {
          malformedUpload(error as { statusCode?: number });
        }
        const issues = checkAgainst(DocumentFieldsSchema, { kind: fields.kind, title: fields.title });
        if (issues.length > 0) throw new AppError(ErrorCode.VALIDATION_FAILED, issues[0]!.message, issues);
        if (!file) throw new AppError(ErrorCode.VALIDATION_FAILED, 'Send the document in the field "file"', [{ field: 'file', message: 'file is required' }]);
        if (file.body.length === 0) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Documents must be ${DOCUMENT_TYPE_NAMES} files`);
        const document = await dossiers.addDocument(request.session!.userId, id, file.body, fields as DocumentFields, file.name);
        return reply.status(201).send({ data: document });
      },
    );
  });
};

/** The multipart parser's own errors carry no status: the client's broken body. Limit errors (413) pass through. */
function malformedUpload(error: { statusCode?: number }): never {
  if (error.statusCode) throw error;
  throw new AppError(ErrorCode.INVALID_BODY, 'The upload is not a complete multipart/form-data body', [{ field: 'file', message: 'the upload was cut short or malformed' }]);
}

export default dossierRoutes;
