import { createHash } from 'node:crypto';
import type { PaymentMethod } from '@common/enums.ts';

/**
 * Where escrow money actually moves: the buyer's payment in, the seller's payout or the buyer's
 * refund out. The order lifecycle calls only this interface, so a real provider (Stripe Connect
 * transfers, Escrow.com's transaction API) replaces the simulated bank without touching it.
 *
 * Every call carries an idempotency key derived from the order (`order-12-payout`): an
 * implementation must move money at most once per key and answer a repeat with the first
 * result, because a call is repeated whenever a process dies between the provider's answer and
 * the database commit that records it.
 */
export interface PaymentProvider {
  /** Recorded with every payment, so references stay traceable when the provider changes. */
  readonly name: string;
  charge(request: ChargeRequest): Promise<PaymentResult>;
  payout(request: PayoutRequest): Promise<PaymentResult>;
  refund(request: RefundRequest): Promise<PaymentResult>;
}

export interface ChargeRequest {
  idempotencyKey: string;
  orderId: number;
  /** Whole US dollars: the price plus the escrow fee. */
  amount: number;
  method: PaymentMethod;
}

export interface PayoutRequest {
  idempotencyKey: string;
  orderId: number;
  /** The seller profile being paid. */
  sellerId: number;
  amount: number;
}

export interface RefundRequest {
  idempotencyKey: string;
  orderId: number;
  /** The provider's reference of the charge being returned. */
  chargeReference: string;
  amount: number;
}

export interface PaymentResult {
  reference: string;
}

/** The provider refused the payment (declined card, closed account); the buyer may try again. */
export class PaymentDeclined extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentDeclined';
  }
}

/**
 * A bank simulated in process, so the whole lifecycle runs on a fresh machine. Its references
 * are derived from the idempotency key, which makes it idempotent by construction: the same
 * request always answers the same reference, and a repeat moves nothing.
 */
export class SimulatedBank implements PaymentProvider {
  readonly name = 'simulated-bank';

  async charge(request: ChargeRequest): Promise<PaymentResult> {
    return { reference: reference(request.method === 'card' ? 'CRD' : 'WIR', request.idempotencyKey) };
  }

  async payout(request: PayoutRequest): Promise<PaymentResult> {
    return { reference: reference('PAY', request.idempotencyKey) };
  }

  async refund(request: RefundRequest): Promise<PaymentResult> {
    return { reference: reference('RFD', request.idempotencyKey) };
  }
}

function reference(kind: string, idempotencyKey: string): string {
  const digest = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 12).toUpperCase();
  return `SIM-${kind}-${digest}`;
}
