import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { PAGES } from '@common/paths.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { FormField, TextField } from '../../../components/ui/form-field.tsx';
import { ArrowLeftIcon, LockIcon } from '../../../components/ui/icons.tsx';
import { Loaded } from '../../../components/ui/load-state.tsx';
import { SignedIn } from '../../../components/signed-in.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { formatDate, formatRelativeTime } from '../../../lib/relative-time.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useResource } from '../../../lib/use-resource.ts';
import { addPushSubscription, getNotificationPreferences, listPushSubscriptions, saveNotificationPreferences, sendTestPush } from '../api/notification-settings.ts';
import { NOTIFICATION_CHANNELS, NOTIFICATION_EVENTS, type NotificationChannel, type NotificationEvent, type Preferences, type PushDevice } from '../api/notification-types.ts';
import {
  CHANNEL_LABELS,
  EVENT_LABELS,
  FIELD_ORDER,
  cellField,
  cellLabel,
  draftOf,
  errorsFromDetails,
  isLocked,
  timeZoneNames,
  updateOf,
  validateDraft,
  type PreferencesDraft,
  type PreferencesField,
} from '../lib/notification-preferences.ts';
import { PushSetupError, readDeviceState, subscriptionBody, turnOff, turnOn, type DeviceState } from '../lib/push-device.ts';
import './dashboard.css';
import './notification-settings.css';

/** `/dashboard/notifications`: the dashboard's Settings → Notifications (signed-in users only). */
export function NotificationSettingsScreen() {
  useDocumentTitle('Notification settings');
  return <SignedIn>{(user) => <NotificationSettings userId={user.id} />}</SignedIn>;
}

function NotificationSettings({ userId }: { userId: number }) {
  const titleId = useId();
  const { resource, retry } = useResource(`notification-preferences:${userId}`, getNotificationPreferences, 'Your notification settings could not be loaded');
  return (
    <div className="container page notif-settings" data-testid="notification-settings">
      <p className="notif-settings__back">
        <Link to={`${PAGES.dashboard}?tab=settings`} className="text-link">
          <ArrowLeftIcon size={16} /> Settings
        </Link>
      </p>
      <h1 id={titleId} className="page-title">
        Notifications
      </h1>
      <p className="muted notif-settings__lead">
        Choose what reaches you in the app, by email and as a push notification on your devices, and when to be left alone.
      </p>
      <Loaded resource={resource} retry={retry} label="Loading your notification settings...">
        {(preferences) => <PreferencesForm preferences={preferences} />}
      </Loaded>
      <DevicesCard userId={userId} />
    </div>
  );
}

// ── What arrives where, and quiet hours ──────────────────────────────────────────────────

function PreferencesForm({ preferences: loaded }: { preferences: Preferences }) {
  const base = useId();
  const [preferences, setPreferences] = useState(loaded);
  const [draft, setDraft] = useState<PreferencesDraft>(() => draftOf(loaded));
  const [errors, setErrors] = useState<Partial<Record<PreferencesField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [zones] = useState(() => timeZoneNames(draftOf(loaded).timeZone));

  const cellId = (event: NotificationEvent, channel: NotificationChannel) => `${base}-${event}-${channel}`;
  const errorIdOf = (field: string) => `${base}-${field.replace(/\./g, '-')}-error`;
  const quietId = (field: 'start' | 'end' | 'timeZone' | 'quietHours') => `${base}-${field}`;
  const lockNoteId = `${base}-locked`;
  const zoneListId = `${base}-zones`;

  /** The control a field's problem is shown at (a row's: its first cell that can change). */
  function controlOf(field: PreferencesField): HTMLElement | null {
    if (field === 'start' || field === 'end' || field === 'timeZone' || field === 'quietHours') return document.getElementById(quietId(field));
    const [, event, channel] = field.split('.') as [string, NotificationEvent, NotificationChannel | undefined];
    const channels = channel ? [channel] : NOTIFICATION_CHANNELS.filter((c) => !isLocked(preferences, event, c));
    return document.getElementById(cellId(event, channels[0] ?? 'inApp'));
  }

  function show(found: Partial<Record<PreferencesField, string>>): boolean {
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    // After the render that shows the messages, so the control's description is read with it.
    if (first) requestAnimationFrame(() => controlOf(first)?.focus());
    return first === undefined;
  }

  function change(update: (d: PreferencesDraft) => PreferencesDraft, clears: PreferencesField[]) {
    setDraft(update);
    setSaved(false);
    setErrors((e) => (clears.some((f) => e[f]) ? Object.fromEntries(Object.entries(e).filter(([f]) => !clears.includes(f as PreferencesField))) : e));
  }

  function toggle(event: NotificationEvent, channel: NotificationChannel, on: boolean) {
    change((d) => ({ ...d, events: { ...d.events, [event]: { ...d.events[event], [channel]: on } } }), [cellField(event, channel), `events.${event}`]);
  }

  async function handleSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (saving) return;
    setFormError(null);
    setSaved(false);
    if (!show(validateDraft(draft))) return;
    setSaving(true);
    try {
      const stored = await saveNotificationPreferences(updateOf(draft, preferences));
      setPreferences(stored);
      setDraft(draftOf(stored, draft.timeZone));
      setSaved(true);
    } catch (err) {
      const { fields, other } = err instanceof ApiError ? errorsFromDetails(err.details) : { fields: {}, other: [] };
      const placed = !show(fields);
      setFormError(placed && other.length === 0 ? 'Please correct the highlighted settings' : [errorMessage(err), ...other].join(' '));
    } finally {
      setSaving(false);
    }
  }

  const lockedEvents = [...new Set(preferences.locked.map((cell) => cell.event))];

  return (
    <form className="card notif-form" onSubmit={handleSubmit} noValidate aria-label="Notification preferences">
      <fieldset className="notif-form__group">
        <legend className="section-title">What reaches you, and where</legend>
        <div className="notif-matrix__scroll">
          <table className="notif-matrix">
            <thead>
              <tr>
                <th scope="col">Event</th>
                {NOTIFICATION_CHANNELS.map((channel) => (
                  <th scope="col" key={channel}>
                    {CHANNEL_LABELS[channel]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {NOTIFICATION_EVENTS.map((event) => {
                const rowError = errors[`events.${event}`];
                return (
                  <tr key={event} data-event={event}>
                    <th scope="row">
                      <span className="notif-matrix__event">{EVENT_LABELS[event].label}</span>
                      <span className="notif-matrix__hint">{EVENT_LABELS[event].hint}</span>
                      {rowError && (
                        <span id={errorIdOf(`events.${event}`)} className="field__hint field__hint--error notif-matrix__error">
                          {rowError}
                        </span>
                      )}
                      {NOTIFICATION_CHANNELS.map((channel) => {
                        const error = errors[cellField(event, channel)];
                        return error ? (
                          <span key={channel} id={errorIdOf(cellField(event, channel))} className="field__hint field__hint--error notif-matrix__error">
                            {`${CHANNEL_LABELS[channel]}: ${error}`}
                          </span>
                        ) : null;
                      })}
                    </th>
                    {NOTIFICATION_CHANNELS.map((channel) => {
                      const locked = isLocked(preferences, event, channel);
                      const field = cellField(event, channel);
                      const error = errors[field] ?? rowError;
                      const describedBy = [locked ? lockNoteId : '', errors[field] ? errorIdOf(field) : rowError ? errorIdOf(`events.${event}`) : ''].filter(Boolean).join(' ');
                      return (
                        <td key={channel} data-channel={channel}>
                          <label className={locked ? 'notif-cell notif-cell--locked' : 'notif-cell'} htmlFor={cellId(event, channel)}>
                            <input
                              id={cellId(event, channel)}
                              type="checkbox"
                              aria-label={cellLabel(event, channel)}
                              checked={locked || draft.events[event][channel]}
                              disabled={locked}
                              aria-invalid={error ? true : undefined}
                              aria-describedby={describedBy || undefined}
                              onChange={(e) => toggle(event, channel, e.target.checked)}
                            />
                            {locked && (
                              <span className="notif-cell__lock">
                                <LockIcon size={14} aria-hidden="true" />
                                Always on
                              </span>
                            )}
                          </label>
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {lockedEvents.length > 0 && (
          <p id={lockNoteId} className="muted notif-form__note">
            <LockIcon size={14} aria-hidden="true" />
            <span>
            {lockedEvents.map((event) => EVENT_LABELS[event].label).join(', ')}
            {' '}always reach you{' '}
            {joinWords(
              preferences.locked
                .filter((cell, i, all) => all.findIndex((c) => c.channel === cell.channel) === i)
                .map((cell) => (cell.channel === 'inApp' ? 'in the app' : cell.channel === 'email' ? 'by email' : 'by push')),
            )}
            : they concern money held in escrow, so they cannot be turned off.
            </span>
          </p>
        )}
      </fieldset>

      <fieldset className="notif-form__group">
        <legend className="section-title">Quiet hours</legend>
        <label className="notif-quiet__toggle" htmlFor={quietId('quietHours')}>
          <input
            id={quietId('quietHours')}
            type="checkbox"
            checked={draft.quietOn}
            aria-describedby={`${quietId('quietHours')}-hint${errors.quietHours ? ` ${errorIdOf('quietHours')}` : ''}`}
            aria-invalid={errors.quietHours ? true : undefined}
            onChange={(e) => {
              const on = e.target.checked;
              change((d) => ({ ...d, quietOn: on }), ['quietHours', 'start', 'end', 'timeZone']);
            }}
          />
          Hold email and push notifications during quiet hours
        </label>
        <p id={`${quietId('quietHours')}-hint`} className="field__hint muted">
          What arrives meanwhile is sent as one summary per kind when they end. In-app notifications are never held; nor are order updates,
          or outbid and ending notices for an auction that ends before your quiet hours do.
        </p>
        {errors.quietHours && (
          <p id={errorIdOf('quietHours')} className="field__hint field__hint--error">
            {errors.quietHours}
          </p>
        )}
        {draft.quietOn && (
          <div className="notif-quiet__fields">
            <TimeField
              id={quietId('start')}
              label="From"
              value={draft.start}
              error={errors.start}
              onChange={(value) => change((d) => ({ ...d, start: value }), ['start', 'quietHours'])}
            />
            <TimeField
              id={quietId('end')}
              label="Until"
              value={draft.end}
              error={errors.end}
              onChange={(value) => change((d) => ({ ...d, end: value }), ['end', 'quietHours'])}
            />
            <TextField
              id={quietId('timeZone')}
              className="notif-quiet__zone"
              label="Time zone"
              hint="Your browser’s zone unless you choose another"
              name="timeZone"
              list={zoneListId}
              autoComplete="off"
              spellCheck={false}
              value={draft.timeZone}
              error={errors.timeZone}
              onChange={(value) => change((d) => ({ ...d, timeZone: value }), ['timeZone', 'quietHours'])}
            />
            <datalist id={zoneListId}>
              {zones.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
          </div>
        )}
      </fieldset>

      {formError && <Alert tone="error">{formError}</Alert>}
      <div className="cluster notif-form__actions">
        <button type="submit" className="btn btn--primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save preferences'}
        </button>
        <p role="status" className="notif-form__status" data-testid="preferences-status">
          {saved ? 'Preferences saved' : ''}
        </p>
      </div>
    </form>
  );
}

function joinWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function TimeField({ id, label, value, error, onChange }: { id: string; label: string; value: string; error?: string; onChange: (value: string) => void }) {
  return (
    <FormField id={id} label={label} error={error} className="notif-quiet__time">
      {(control) => <input {...control} type="time" className="input" value={value} onChange={(e) => onChange(e.target.value)} required />}
    </FormField>
  );
}

// ── This device and the others ────────────────────────────────────────────────────────────

/** Which stored subscription this browser's is, as the server numbered it when it was added. */
const DEVICE_KEY = 'luxemotors.pushDevice';

function rememberDevice(userId: number, endpoint: string, id: number): void {
  try {
    window.localStorage.setItem(DEVICE_KEY, JSON.stringify({ userId, endpoint, id }));
  } catch {
    // Storage refused (private mode): the list just cannot say which row is this browser.
  }
}

function rememberedDevice(userId: number, endpoint: string): number | null {
  try {
    const stored = JSON.parse(window.localStorage.getItem(DEVICE_KEY) ?? 'null') as { userId?: unknown; endpoint?: unknown; id?: unknown } | null;
    return stored && stored.userId === userId && stored.endpoint === endpoint && typeof stored.id === 'number' ? stored.id : null;
  } catch {
    return null;
  }
}

function DevicesCard({ userId }: { userId: number }) {
  const titleId = useId();
  const [device, setDevice] = useState<DeviceState | null>(null);
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [busy, setBusy] = useState<'on' | 'off' | 'test' | null>(null);
  const [message, setMessage] = useState<{ tone: 'error' | 'success' | 'info'; text: string } | null>(null);
  const { resource: devices, retry: reloadDevices, mutate } = useResource(`push-devices:${userId}`, listPushSubscriptions, 'Your devices could not be loaded');

  // Read, never asked: the permission prompt comes only from the button below.
  useEffect(() => {
    let live = true;
    void readDeviceState()
      .then(async (state) => {
        if (!live) return;
        setDevice(state);
        if (state.kind !== 'on') return;
        const known = rememberedDevice(userId, state.endpoint);
        if (known !== null) return setDeviceId(known);
        // Subscribed in this browser but not known as this user's device (another account used it,
        // or the server dropped it): store it again, as the same endpoint only updates its keys.
        const registration = await navigator.serviceWorker.getRegistration('/');
        const subscription = await registration?.pushManager.getSubscription();
        if (!subscription || !live) return;
        const id = await addPushSubscription(subscriptionBody(subscription));
        rememberDevice(userId, state.endpoint, id);
        if (live) {
          setDeviceId(id);
          reloadDevices();
        }
      })
      .catch(() => {
        if (live) setDevice((current) => current ?? { kind: 'off' });
      });
    return () => {
      live = false;
    };
  }, [userId, reloadDevices]);

  async function enable() {
    setBusy('on');
    setMessage(null);
    try {
      const { id, ...state } = await turnOn();
      rememberDevice(userId, state.endpoint, id);
      setDeviceId(id);
      setDevice(state);
      reloadDevices();
      setMessage({ tone: 'success', text: 'Notifications are on for this device.' });
    } catch (err) {
      if (err instanceof PushSetupError) setDevice(err.state);
      setMessage({ tone: 'error', text: err instanceof PushSetupError ? err.message : errorMessage(err, 'Notifications could not be turned on') });
    } finally {
      setBusy(null);
    }
  }

  async function disable(endpoint: string) {
    setBusy('off');
    setMessage(null);
    try {
      await turnOff(endpoint);
      setDevice({ kind: 'off' });
      if (deviceId !== null) mutate((list) => list.filter((d) => d.id !== deviceId));
      setDeviceId(null);
      setMessage({ tone: 'success', text: 'This device no longer receives notifications.' });
    } catch (err) {
      setMessage({ tone: 'error', text: errorMessage(err, 'This device could not be removed') });
    } finally {
      setBusy(null);
    }
  }

  async function test() {
    setBusy('test');
    setMessage(null);
    try {
      await sendTestPush();
      setMessage({ tone: 'success', text: 'A test notification is on its way to each of your devices.' });
    } catch (err) {
      setMessage({ tone: 'error', text: errorMessage(err, 'The test notification could not be sent') });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card notif-devices" aria-labelledby={titleId} data-testid="push-devices">
      <h2 id={titleId} className="section-title">
        Push notifications on your devices
      </h2>
      <div className="notif-devices__this">
        {device === null ? (
          <p className="muted">Checking this browser...</p>
        ) : device.kind === 'unsupported' ? (
          <p>This browser cannot receive push notifications. On an iPhone or iPad, add LuxeMotors to your Home Screen first.</p>
        ) : device.kind === 'blocked' ? (
          <p>Notifications are blocked for this site. Allow them in your browser’s site settings, then come back to turn them on.</p>
        ) : device.kind === 'on' ? (
          <div className="split-row">
            <p>This device receives push notifications.</p>
            <button type="button" className="btn btn--outline btn--sm" onClick={() => void disable(device.endpoint)} disabled={busy !== null}>
              {busy === 'off' ? 'Turning off...' : 'Turn off on this device'}
            </button>
          </div>
        ) : (
          <div className="split-row">
            <p>Get bids, offers and auction endings on this device even when LuxeMotors is closed. Your browser will ask for permission.</p>
            <button type="button" className="btn btn--primary btn--sm" onClick={() => void enable()} disabled={busy !== null}>
              {busy === 'on' ? 'Turning on...' : 'Turn on notifications on this device'}
            </button>
          </div>
        )}
      </div>

      {message && <Alert tone={message.tone}>{message.text}</Alert>}

      <h3 className="notif-devices__subtitle">Your devices</h3>
      <Loaded resource={devices} retry={reloadDevices} label="Loading your devices...">
        {(list) => (
          <DeviceList
            list={list}
            thisDevice={device?.kind === 'on' ? { id: deviceId, endpoint: device.endpoint } : null}
            busy={busy !== null}
            onRemoveThis={(endpoint) => void disable(endpoint)}
          />
        )}
      </Loaded>

      <div className="cluster notif-devices__test">
        <button type="button" className="btn btn--outline btn--sm" onClick={() => void test()} disabled={busy !== null || (devices.status === 'success' && devices.data.length === 0)}>
          {busy === 'test' ? 'Sending...' : 'Send a test notification'}
        </button>
        {devices.status === 'success' && devices.data.length === 0 && <p className="muted">Turn notifications on for a device first.</p>}
      </div>
    </section>
  );
}

function DeviceList({
  list,
  thisDevice,
  busy,
  onRemoveThis,
}: {
  list: PushDevice[];
  thisDevice: { id: number | null; endpoint: string } | null;
  busy: boolean;
  onRemoveThis: (endpoint: string) => void;
}) {
  if (list.length === 0) return <p className="muted">No device receives push notifications yet.</p>;
  return (
    <ul className="notif-devices__list" aria-label="Devices that receive push notifications">
      {list.map((item) => {
        const isThis = thisDevice !== null && thisDevice.id === item.id;
        return (
          <li key={item.id} className="split-row notif-device" data-testid="push-device">
            <div>
              <p className="notif-device__name">
                {isThis ? 'This device' : 'Another device'}
                <span className="muted"> · via {item.endpointHost}</span>
              </p>
              <p className="muted notif-device__meta">
                Added {formatDate(item.createdAt)}
                {' · '}
                {item.lastSuccessAt ? `last notified ${formatRelativeTime(item.lastSuccessAt)}` : 'not notified yet'}
              </p>
            </div>
            {isThis ? (
              <button type="button" className="btn btn--outline btn--sm" onClick={() => onRemoveThis(thisDevice.endpoint)} disabled={busy} aria-label="Remove this device">
                Remove
              </button>
            ) : (
              <p className="muted notif-device__how">Turn it off on that device</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
