import { SAVED_SEARCH_ALERTS, type SavedSearchAlerts } from '@common/market-data.ts';

/** The alert settings of a saved search, each explained in one sentence (the save dialog and the dashboard both offer them). */
const ALERT_WORDS: Record<SavedSearchAlerts, { label: string; sentence: string }> = {
  instant: { label: 'Instant', sentence: 'A notification and an email within a minute of a matching car being listed or dropping its price.' },
  daily: { label: 'Daily', sentence: "One email a day with that day's matching cars." },
  off: { label: 'Off', sentence: 'No emails: the search stays in your dashboard, to run whenever you like.' },
};

export const ALERT_CHOICES = SAVED_SEARCH_ALERTS.map((value) => ({ value, ...ALERT_WORDS[value] }));

export const alertLabel = (alerts: SavedSearchAlerts) => ALERT_WORDS[alerts].label;
