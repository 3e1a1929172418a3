import type { CarDetail, Gallery } from '@common/schemas/cars.ts';
import type { DocumentFields, DossierDocument, DossierEdit } from '@common/schemas/dossier.ts';
import { api, type UploadOptions } from '../../../lib/api-client.ts';
import type { ListingEdit, NewListing } from '../lib/listing-form.ts';

export type { CarDetail, CarPhoto, Gallery } from '@common/schemas/cars.ts';

export function getListing(carId: number, signal?: AbortSignal): Promise<CarDetail> {
  return api.get<CarDetail>(`/api/cars/${carId}`, { signal });
}

/** `POST /api/cars`; `idempotencyKey` makes a repeated submission create one listing. */
export function createListing(listing: NewListing, idempotencyKey: string): Promise<CarDetail> {
  return api.post<CarDetail>('/api/cars', listing, { headers: { 'Idempotency-Key': idempotencyKey } });
}

export function updateListing(carId: number, changes: ListingEdit): Promise<CarDetail> {
  return api.patch<CarDetail>(`/api/cars/${carId}`, changes);
}

export function publishListing(carId: number): Promise<CarDetail> {
  return api.post<CarDetail>(`/api/cars/${carId}/publish`);
}

export function withdrawListing(carId: number): Promise<CarDetail> {
  return api.delete<CarDetail>(`/api/cars/${carId}`);
}

/** Adds one photo at the end of the gallery, reporting upload progress. */
export function uploadPhoto(carId: number, file: File, options: UploadOptions = {}): Promise<Gallery> {
  return api.upload<Gallery>(`/api/cars/${carId}/images`, 'file', file, options);
}

export function removePhoto(carId: number, index: number): Promise<Gallery> {
  return api.delete<Gallery>(`/api/cars/${carId}/images/${index}`);
}

/** `order` lists every current position once, the new first photo first. */
export function reorderPhotos(carId: number, order: number[]): Promise<Gallery> {
  return api.put<Gallery>(`/api/cars/${carId}/images/order`, { order });
}

/** `PUT /api/cars/:id/dossier`: each list given replaces the old one; answers the car. */
export function saveDossier(carId: number, dossier: DossierEdit): Promise<CarDetail> {
  return api.put<CarDetail>(`/api/cars/${carId}/dossier`, dossier);
}

/** Adds one document (its kind and title go with it), reporting upload progress. */
export function uploadDocument(carId: number, file: File, fields: DocumentFields, options: UploadOptions = {}): Promise<DossierDocument> {
  return api.upload<DossierDocument>(`/api/cars/${carId}/documents`, 'file', file, { ...options, fields: { kind: fields.kind, title: fields.title } });
}

export function removeDocument(carId: number, documentId: number): Promise<unknown> {
  return api.delete<unknown>(`/api/cars/${carId}/documents/${documentId}`);
}
