import { describe, expect, it } from 'vitest';
import { NOTIFICATION_EVENTS, type Preferences } from '../api/notification-types.ts';
import { draftOf, errorsFromDetails, timeZoneNames, updateOf, validateDraft } from './notification-preferences.ts';

const stored = (): Preferences => ({
  events: Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, { inApp: true, email: true, push: false }])) as Preferences['events'],
  quietHours: null,
  locked: [
    { event: 'order_update', channel: 'inApp' },
    { event: 'order_update', channel: 'email' },
  ],
});

describe('notification preferences form', () => {
  it('starts quiet hours off in the given zone, and sends null while they stay off', () => {
    const draft = draftOf(stored(), 'Europe/Paris');
    expect(draft).toMatchObject({ quietOn: false, timeZone: 'Europe/Paris' });
    expect(updateOf(draft, stored()).quietHours).toBeNull();
  });

  it('sends locked cells as on whatever the form holds', () => {
    const draft = draftOf(stored());
    draft.events.order_update.email = false;
    draft.events.bid_received.email = false;
    const update = updateOf(draft, stored());
    expect(update.events?.order_update).toEqual({ inApp: true, email: true, push: false });
    expect(update.events?.bid_received?.email).toBe(false);
  });

  it('asks for a start, an end that differs, and a zone', () => {
    const draft = { ...draftOf(stored(), 'UTC'), quietOn: true, start: '', end: '07:00', timeZone: ' ' };
    expect(validateDraft(draft)).toEqual({ start: expect.any(String), timeZone: expect.any(String) });
    expect(validateDraft({ ...draft, start: '07:00', timeZone: 'UTC' })).toEqual({ end: expect.any(String) });
    expect(validateDraft({ ...draft, start: '23:30', end: '06:15', timeZone: 'UTC' })).toEqual({});
    expect(updateOf({ ...draft, start: '23:30:00', end: '06:15', timeZone: 'UTC' }, stored()).quietHours).toEqual({ start: '23:30', end: '06:15', timeZone: 'UTC' });
  });

  it('places the server’s field errors at their cell, row or quiet-hours field', () => {
    const { fields, other } = errorsFromDetails([
      { field: '/events/order_update/email', message: 'locked' },
      { field: 'events.nope', message: 'unknown event' },
      { field: 'events.outbid', message: 'bad row' },
      { field: 'quietHours.timeZone', message: 'unknown zone' },
      { field: '/quietHours/start', message: 'bad time' },
      { field: 'something', message: 'else' },
    ]);
    expect(fields).toEqual({
      'events.order_update.email': 'locked',
      'events.outbid': 'bad row',
      timeZone: 'unknown zone',
      start: 'bad time',
    });
    expect(other).toEqual(['unknown event', 'else']);
  });

  it('lists the browser’s zones with UTC and the current one', () => {
    const names = timeZoneNames('Mars/Base');
    expect(names).toContain('UTC');
    expect(names).toContain('Mars/Base');
    expect(names).toContain('Europe/Berlin');
  });
});
