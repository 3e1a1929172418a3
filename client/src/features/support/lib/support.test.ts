import { describe, expect, it } from 'vitest';
import { BID_RULE_DESCRIPTION } from '@common/bid-rules.ts';
import { ESCROW_PLANS } from '@common/escrow-plans.ts';
import { FAQ, normalizeText, searchFaq } from './faq.ts';
import { EMPTY_TICKET, ticketBody, ticketErrorsFromDetails, validateTicket } from './ticket.ts';

describe('FAQ', () => {
  it('has at least ten questions with unique ids', () => {
    expect(FAQ.length).toBeGreaterThanOrEqual(10);
    expect(new Set(FAQ.map((e) => e.id)).size).toBe(FAQ.length);
  });

  it('answers from the rules the product enforces', () => {
    const text = FAQ.flatMap((e) => e.answer).join(' ');
    expect(text).toContain(BID_RULE_DESCRIPTION);
    for (const plan of Object.values(ESCROW_PLANS)) {
      expect(text).toContain(plan.name);
      expect(text).toContain(`$${plan.price}`);
      expect(text).toContain(`$${plan.maxValue.toLocaleString('en-US')}`);
    }
  });

  it('search matches every word, in question or answer, ignoring case and accents', () => {
    expect(searchFaq(FAQ, '').length).toBe(FAQ.length);
    const ids = (q: string) => searchFaq(FAQ, q).map((e) => e.id);
    expect(ids('outbid')).toContain('outbid');
    expect(ids('PASSWORD forgot')).toEqual(['forgot-password']);
    expect(ids('xylophone')).toEqual([]);
    expect(normalizeText('Café ÉLITE')).toBe('cafe elite');
  });
});

describe('ticket form', () => {
  it('needs a subject and a message, in the spec’s words', () => {
    expect(validateTicket(EMPTY_TICKET, false)).toEqual({ subject: 'Subject is required', message: 'Message is required' });
    expect(validateTicket({ ...EMPTY_TICKET, subject: '  ', message: ' \n ' }, false)).toEqual({
      subject: 'Subject is required',
      message: 'Message is required',
    });
  });

  it('needs an email only from visitors', () => {
    const filled = { ...EMPTY_TICKET, subject: 'Title', message: 'Help' };
    expect(validateTicket(filled, false)).toEqual({});
    expect(validateTicket(filled, true).email).toBe('Email is required');
    expect(validateTicket({ ...filled, email: 'nope' }, true).email).toBe('Please enter a valid email address');
    expect(validateTicket({ ...filled, email: 'ann@example.com' }, true)).toEqual({});
  });

  it('limits subject and message length', () => {
    const filled = { ...EMPTY_TICKET, subject: 'x'.repeat(151), message: 'y'.repeat(5001) };
    expect(validateTicket(filled, false)).toEqual({
      subject: 'Subject must be at most 150 characters',
      message: 'Message must be at most 5000 characters',
    });
  });

  it('sends trimmed fields, defaults, and the email only for visitors', () => {
    const values = { ...EMPTY_TICKET, subject: ' Title ', message: ' Help ', email: ' ann@example.com ' };
    expect(ticketBody(values, false)).toEqual({ subject: 'Title', message: 'Help', category: 'general', priority: 'normal' });
    expect(ticketBody(values, true).email).toBe('ann@example.com');
  });

  it('maps server details onto fields', () => {
    expect(
      ticketErrorsFromDetails([
        { field: 'email', message: 'must match format "email"' },
        { field: '', message: 'something else' },
      ]),
    ).toEqual({ fields: { email: 'must match format "email"' }, other: ['something else'] });
  });
});
