import type { TestApp } from './app.ts';
import type { SignedInUser } from './users.ts';

/** A full dossier for a 2022 Porsche, as the seller would send it. */
export const SAMPLE_DOSSIER = {
  vin: 'WP0AC2A94NS270123',
  knownFlaws: [{ text: 'Stone chips on the front bumper' }, { text: 'Curb rash on the left rear wheel' }],
  modifications: [{ text: 'Clear paint protection film on the nose' }],
  itemsIncluded: [{ text: 'Both keys' }, { text: 'Car cover and battery tender' }],
  serviceRecords: [{ date: '2024-05-10', mileage: 6_120, shop: 'Porsche Austin', work: 'Annual service, brake fluid', cost: 1_450 }],
};

/** The dossier routes, called in process. */
export function dossierApi(t: TestApp) {
  const as = (user?: SignedInUser) => (user ? user.auth : {});
  return {
    put: (user: SignedInUser | undefined, carId: number, body: object) => t.app.inject({ method: 'PUT', url: `/api/cars/${carId}/dossier`, headers: as(user), payload: body }),
    car: (carId: number, user?: SignedInUser) => t.app.inject({ method: 'GET', url: `/api/cars/${carId}`, headers: as(user) }),
    inspection: (user: SignedInUser | undefined, orderId: number) => t.app.inject({ method: 'GET', url: `/api/orders/${orderId}/inspection`, headers: as(user) }),
    mark: (user: SignedInUser | undefined, orderId: number, items: object[]) => t.app.inject({ method: 'PUT', url: `/api/orders/${orderId}/inspection`, headers: as(user), payload: { items } }),
  };
}

/** Uploads a document over HTTP (the app must be listening), as a browser's form would. */
export async function uploadDocument(
  t: TestApp,
  user: SignedInUser | undefined,
  carId: number,
  body: Buffer,
  options: { filename?: string; type?: string; kind?: string; title?: string } = {},
): Promise<Response> {
  const form = new FormData();
  form.append('kind', options.kind ?? 'service');
  form.append('title', options.title ?? 'Service invoice');
  form.append('file', new Blob([new Uint8Array(body)], { type: options.type ?? 'application/pdf' }), options.filename ?? 'invoice.pdf');
  return fetch(`${t.url}/api/cars/${carId}/documents`, { method: 'POST', headers: user ? user.auth : {}, body: form });
}
