/**
 * The contract's small enumerations that the database stores and the API speaks. The database's
 * checks and the request schemas both read these lists.
 */

export const SUPPORT_CATEGORIES = ['general', 'buying', 'selling', 'payments', 'technical', 'escrow'] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];
export const SUPPORT_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type SupportPriority = (typeof SUPPORT_PRIORITIES)[number];

export const PAYMENT_KINDS = ['charge', 'payout', 'fee', 'refund'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];
export const PAYMENT_METHODS = ['wire', 'card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const CHAT_MESSAGE_TYPES = ['message', 'question', 'bid'] as const;
export type ChatMessageType = (typeof CHAT_MESSAGE_TYPES)[number];
/** What a person may post; `bid` lines are written by the server when a bid is placed. */
export const POSTABLE_CHAT_MESSAGE_TYPES = ['message', 'question'] as const;

export const NOTIFICATION_TYPES = ['bid', 'message', 'system'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
