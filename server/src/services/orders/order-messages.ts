import { formatUsd } from '@common/pricing.ts';
import { ESCROW_PLANS, amountCharged } from '@common/escrow-plans.ts';
import type { OrderAction, OrderActor, OrderStatus } from '@common/order-lifecycle.ts';
import type { OutgoingMail } from '../mailer.ts';
import { orderEmail } from '../mail-templates.ts';
import type { NewNotification } from '../notifications.ts';
import type { OrderRecord } from './order-views.ts';
import { orderPath } from '@common/paths.ts';

/** What happened to an order, in the words its parties are told. */
export type OrderNews =
  | { kind: 'placed' }
  | { kind: 'moved'; action: OrderAction; to: OrderStatus; actor: OrderActor; note: string | null }
  | { kind: 'payment-reminder' }
  | { kind: 'inspection-reminder' };

export interface OrderMessages {
  notifications: NewNotification[];
  mails: OutgoingMail[];
}

interface Message {
  title: string;
  text: string;
  /** Also sent by email (the steps a party must not miss). */
  email?: boolean;
}

const deadlineFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });
export const formatDeadline = (date: Date) => `${deadlineFormat.format(date)} UTC`;

/** The bell notifications and emails for both parties of `record` about `news`. */
export function orderMessages(news: OrderNews, record: OrderRecord, appUrl: string): OrderMessages {
  const { order, car, buyer, seller } = record;
  const title = `${car.year} ${car.make} ${car.model}`;
  const total = formatUsd(amountCharged(order));
  const price = formatUsd(order.amount);
  const ref = `Order #${order.id}`;
  const { toBuyer, toSeller } = compose(news, { title, total, price, ref, record });

  const notifications: NewNotification[] = [];
  const mails: OutgoingMail[] = [];
  const url = `${appUrl}${orderPath(order.id)}`;
  const deliver = (message: Message | null, userId: number | null, email: string | null, name: string) => {
    if (!message || userId === null) return;
    // The order's own mail (below) is its email; push follows the preferences.
    notifications.push({ userId, type: 'system', event: 'order_update', title: message.title, message: message.text, carId: car.id, delivery: { email: false, url: orderPath(order.id) } });
    if (message.email && email) mails.push(orderEmail(email, `${message.title}: ${ref}, ${title}`, [`Hello ${name},`, message.text], url));
  };
  deliver(toBuyer, buyer.id, buyer.email, buyer.name);
  deliver(toSeller, seller.userId, seller.email, seller.name);
  return { notifications, mails };
}

function compose(
  news: OrderNews,
  { title, total, price, ref, record }: { title: string; total: string; price: string; ref: string; record: OrderRecord },
): { toBuyer: Message | null; toSeller: Message | null } {
  const { order, buyer } = record;
  const plan = ESCROW_PLANS[order.plan].name;
  switch (news.kind) {
    case 'placed':
      return {
        toBuyer: {
          title: 'Payment due',
          text: `${ref} for the ${title} (${plan}) is placed. Pay ${total} (${price} plus the ${formatUsd(order.escrowFee)} escrow fee) into escrow by ${formatDeadline(order.paymentDueAt)}, or the order is cancelled.`,
          email: true,
        },
        toSeller: { title: 'New escrow order', text: `${buyer.name} ordered your ${title} for ${price} (${ref}). Waiting for the buyer's payment into escrow.` },
      };
    case 'payment-reminder':
      return {
        toBuyer: { title: 'Payment due in 24 hours', text: `Pay ${total} for the ${title} by ${formatDeadline(order.paymentDueAt)} to keep ${ref}.`, email: true },
        toSeller: null,
      };
    case 'inspection-reminder':
      return {
        toBuyer: {
          title: 'Inspection ends in 24 hours',
          text: `Your inspection period for the ${title} ends ${formatDeadline(order.inspectionEndsAt!)}. Accept the car or open a dispute before then; without a dispute it is accepted and the seller is paid.`,
          email: true,
        },
        toSeller: { title: 'Inspection ends in 24 hours', text: `The buyer's inspection of your ${title} ends ${formatDeadline(order.inspectionEndsAt!)}.` },
      };
    case 'moved':
      return moved(news, { title, total, price, ref, record });
  }
}

function moved(
  news: Extract<OrderNews, { kind: 'moved' }>,
  { title, total, price, ref, record }: { title: string; total: string; price: string; ref: string; record: OrderRecord },
): { toBuyer: Message | null; toSeller: Message | null } {
  const { order } = record;
  const reason = news.note ? ` Reason: ${news.note}` : '';
  switch (news.to) {
    case 'funded':
      return {
        toBuyer: { title: 'Payment secured in escrow', text: `${total} for the ${title} is held in escrow (${ref}). The seller ships the car next.` },
        toSeller: { title: "Buyer's payment is in escrow", text: `${price} for your ${title} is secured in escrow (${ref}). Ship the car and enter the carrier and tracking number.`, email: true },
      };
    case 'in_transit':
      return {
        toBuyer: {
          title: 'Your car has shipped',
          text: `The ${title} is on its way with ${order.shipmentCarrier} (tracking number ${order.shipmentTrackingNumber}). Confirm delivery when it arrives to start your ${order.inspectionDays}-day inspection.`,
          email: true,
        },
        toSeller: { title: 'Shipment recorded', text: `${ref}: the ${title} is in transit with ${order.shipmentCarrier}.` },
      };
    case 'inspection':
      return {
        toBuyer: {
          title: 'Inspection period started',
          text: `Inspect the ${title} until ${formatDeadline(order.inspectionEndsAt!)}, then accept it or open a dispute. Without a dispute it is accepted then and the seller is paid.`,
        },
        toSeller: { title: 'Car delivered', text: `The buyer received your ${title}. Their inspection period ends ${formatDeadline(order.inspectionEndsAt!)}.` },
      };
    case 'accepted':
      return news.action === 'end-inspection'
        ? {
            toBuyer: { title: 'Inspection period ended', text: `No dispute was opened for the ${title}, so it is accepted. Funds are being released to the seller.` },
            toSeller: { title: 'Inspection period ended', text: `The buyer's inspection of your ${title} ended without a dispute. ${price} is being released to you.` },
          }
        : {
            toBuyer: { title: 'You accepted the car', text: `Thank you. Funds for the ${title} are being released to the seller.` },
            toSeller: { title: 'The buyer accepted the car', text: `The buyer accepted your ${title}. ${price} is being released to you.` },
          };
    case 'disputed':
      return {
        toBuyer: { title: 'Dispute opened', text: `Our escrow team is reviewing your dispute about the ${title}; the funds stay in escrow until it is resolved.${reason}` },
        toSeller: { title: 'The buyer opened a dispute', text: `The buyer disputed the ${title} (${ref}). Funds stay in escrow until our team resolves it.${reason}`, email: true },
      };
    case 'released':
      return {
        toBuyer: { title: 'Purchase complete', text: `The purchase of the ${title} is complete and the seller has been paid. Enjoy your car!`, email: true },
        toSeller: {
          title: 'Funds released',
          text: `${price} for your ${title} has been released to you (${ref}; the ${formatUsd(order.escrowFee)} escrow fee was paid by the buyer).`,
          email: true,
        },
      };
    case 'refunded':
      return {
        toBuyer: { title: 'Refund issued', text: `Your dispute about the ${title} was resolved in your favour: ${total} is being refunded to you.${reason}`, email: true },
        toSeller: { title: 'Order refunded', text: `The dispute about your ${title} (${ref}) was resolved with a refund to the buyer. Your car is listed again.${reason}`, email: true },
      };
    case 'cancelled': {
      const why =
        news.action === 'expire-payment-window'
          ? 'The payment window ended before the buyer paid.'
          : news.action === 'void'
            ? (news.note ?? 'The car is no longer available.')
            : `It was cancelled by the ${news.actor}.${reason}`;
      const text = `${ref} for the ${title} is cancelled. ${why}`;
      return { toBuyer: { title: 'Order cancelled', text }, toSeller: { title: 'Order cancelled', text } };
    }
    default:
      return { toBuyer: null, toSeller: null };
  }
}
