import { BID_RULE_DESCRIPTION } from '@common/bid-rules.ts';
import { ESCROW_PLAN_IDS, ESCROW_PLANS } from '@common/escrow-plans.ts';
import { formatUsd } from '@common/pricing.ts';

export interface FaqEntry {
  id: string;
  topic: 'Buying' | 'Bidding' | 'Escrow' | 'Inspections' | 'Accounts' | 'Selling';
  question: string;
  /** Paragraphs. */
  answer: string[];
}

const plans = ESCROW_PLAN_IDS.map((id) => ESCROW_PLANS[id]);
const basic = ESCROW_PLANS.basic;
const premium = ESCROW_PLANS.premium;
const platinum = ESCROW_PLANS.platinum;
const k = (n: number) => `$${n / 1000}K`;

const planLine = (id: (typeof ESCROW_PLAN_IDS)[number]) => {
  const p = ESCROW_PLANS[id];
  const insurance = p.insurance ? `, transit insurance up to ${k(p.insurance)}` : '';
  return `${p.name}: ${formatUsd(p.price)} fee for purchases up to ${formatUsd(p.maxValue)}, ${p.guaranteeDays}-day money-back guarantee${insurance}.`;
};

/** The Support page's questions, with answers drawn from the same rules the product enforces. */
export const FAQ: readonly FaqEntry[] = [
  {
    id: 'how-to-buy',
    topic: 'Buying',
    question: 'How do I buy a car on LuxeMotors?',
    answer: [
      'Find the car in the listings and open its page. Ask the seller anything in the live discussion, then choose “Buy with Escrow”, pick a protection plan and place your order.',
      'You then pay the price and the escrow fee into escrow, inspect the car, and approve it. The seller is paid only after you approve.',
    ],
  },
  {
    id: 'market-value',
    topic: 'Buying',
    question: 'What do “below market” and “above market” mean on a listing?',
    answer: [
      'Every listing shows the asking price next to the car’s market value, our estimate of what comparable cars sell for. The label tells you by how much the price is below (green), above (red) or at (grey) that value.',
    ],
  },
  {
    id: 'bidding',
    topic: 'Bidding',
    question: 'How does bidding work?',
    answer: [
      BID_RULE_DESCRIPTION,
      'You need a signed-in account with a verified email to bid. Every accepted bid appears in the car’s live discussion, and the seller is notified.',
    ],
  },
  {
    id: 'outbid',
    topic: 'Bidding',
    question: 'What happens when someone outbids me?',
    answer: [
      'You get a notification in the bell at the top of the page, and the bid shows as Outbid under My Bids in your dashboard. You can bid again at any time while the car is listed.',
    ],
  },
  {
    id: 'escrow-plans',
    topic: 'Escrow',
    question: 'Which escrow plans are there and what do they cost?',
    answer: [
      ...ESCROW_PLAN_IDS.map(planLine),
      `${premium.name} is our most popular plan and is selected by default. You can compare the plans on the Escrow Service page.`,
    ],
  },
  {
    id: 'escrow-fee',
    topic: 'Escrow',
    question: 'How is the escrow fee charged?',
    answer: [
      `The buyer pays one flat fee per purchase, set by the plan and not by the price: ${plans.map((p) => `${formatUsd(p.price)} for ${p.name}`).join(', ')}. It is paid into escrow together with the price of the car.`,
      `Each plan covers purchases up to its limit. A car priced above ${formatUsd(basic.maxValue)} needs ${premium.name} or ${platinum.name}; above ${formatUsd(premium.maxValue)}, ${platinum.name}.`,
    ],
  },
  {
    id: 'guarantee',
    topic: 'Escrow',
    question: 'How does the money-back guarantee work?',
    answer: [
      `If the car does not match its listing, request a resolution instead of approving it within your plan’s guarantee period: ${plans.map((p) => `${p.guaranteeDays} days with ${p.name}`).join(', ')}. Your money stays in escrow and is returned if the problem is confirmed.`,
    ],
  },
  {
    id: 'inspection',
    topic: 'Inspections',
    question: 'Can I have the car inspected before the seller is paid?',
    answer: [
      `Yes. The funds stay in escrow while you inspect the car. ${premium.name} and ${platinum.name} include an independent pre-purchase inspection; with ${basic.name} you can bring your own mechanic or inspection service.`,
    ],
  },
  {
    id: 'inspection-problem',
    topic: 'Inspections',
    question: 'What if the inspection finds a problem?',
    answer: [
      'Do not approve the car. Request a resolution and tell us what the inspection found: the seller can fix it, agree a new price with you, or the order is cancelled and your money returned. Nothing is released while a question is open.',
    ],
  },
  {
    id: 'verify-email',
    topic: 'Accounts',
    question: 'Why do I need to verify my email address?',
    answer: [
      'Verification unlocks live chat, bidding and escrow. Use the link we emailed you when you signed up; it is valid for 24 hours. If it has expired, send a new one from the sign-in page or your dashboard.',
    ],
  },
  {
    id: 'forgot-password',
    topic: 'Accounts',
    question: 'I forgot my password. What should I do?',
    answer: [
      'Choose “Forgot password?” on the sign-in page and enter your email. We send a link that is valid for 1 hour. After you set a new password, every device has to sign in again.',
    ],
  },
  {
    id: 'selling',
    topic: 'Selling',
    question: 'How do I sell my car on LuxeMotors?',
    answer: [
      'Submit a ticket with the category Selling and tell us about the car. Our team checks your identity and ownership documents, after which your listings carry the Verified seller badge.',
    ],
  },
];

/** Lower case without accents, so "Cafe" finds "Café". */
export function normalizeText(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
}

/** Entries whose question, answer or topic contain every word of the query (any order). */
export function searchFaq(entries: readonly FaqEntry[], query: string): FaqEntry[] {
  const words = normalizeText(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...entries];
  return entries.filter((entry) => {
    const haystack = normalizeText([entry.topic, entry.question, ...entry.answer].join(' '));
    return words.every((word) => haystack.includes(word));
  });
}
