/**
 * Validation of the forms behind the order actions, with the contract's limits: carrier and
 * tracking number 1..100 characters, a dispute reason 1..2,000, a cancellation reason up to 500.
 * Values are trimmed before they are checked and sent.
 */

export const SHIPMENT_FIELD_MAX = 100;
export const DISPUTE_REASON_MAX = 2_000;
export const CANCEL_REASON_MAX = 500;

/** Length in characters as people (and the server) count them, not UTF-16 units. */
export const charCount = (text: string) => [...text].length;

export interface ShipmentValues {
  carrier: string;
  trackingNumber: string;
}

export type ShipmentErrors = Partial<Record<keyof ShipmentValues, string>>;

export function validateShipment(values: ShipmentValues): ShipmentErrors {
  const errors: ShipmentErrors = {};
  const carrier = values.carrier.trim();
  const tracking = values.trackingNumber.trim();
  if (!carrier) errors.carrier = 'Enter the carrier that is transporting the car.';
  else if (charCount(carrier) > SHIPMENT_FIELD_MAX) errors.carrier = `Use at most ${SHIPMENT_FIELD_MAX} characters.`;
  if (!tracking) errors.trackingNumber = 'Enter the tracking number the carrier gave you.';
  else if (charCount(tracking) > SHIPMENT_FIELD_MAX) errors.trackingNumber = `Use at most ${SHIPMENT_FIELD_MAX} characters.`;
  return errors;
}

export function shipmentBody(values: ShipmentValues): ShipmentValues {
  return { carrier: values.carrier.trim(), trackingNumber: values.trackingNumber.trim() };
}

/** The error for a dispute reason, or null when it can be sent. */
export function disputeReasonError(reason: string): string | null {
  const text = reason.trim();
  if (!text) return 'Describe what is wrong with the car, so our escrow team can review it.';
  if (charCount(text) > DISPUTE_REASON_MAX) return `Use at most ${DISPUTE_REASON_MAX.toLocaleString('en-US')} characters.`;
  return null;
}

/** The error for an (optional) cancellation reason, or null. */
export function cancelReasonError(reason: string): string | null {
  return charCount(reason.trim()) > CANCEL_REASON_MAX ? `Use at most ${CANCEL_REASON_MAX} characters.` : null;
}

/** `{reason}` when one was given, else `{}` (the reason is optional). */
export function cancelBody(reason: string): { reason?: string } {
  const text = reason.trim();
  return text ? { reason: text } : {};
}
