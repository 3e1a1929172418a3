import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { MailIcon, MapPinIcon, PhoneIcon, ShieldCheckIcon } from '../../../components/ui/icons.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { toSessionUser, useSessionStore, type SessionUser } from '../../../lib/session-store.ts';
import { initials } from '../../../lib/initials.ts';
import { updateProfile } from '../api/profile.ts';
import {
  errorsFromDetails,
  memberSince,
  PROFILE_LIMITS,
  profileChanges,
  profileFormValues,
  validateProfile,
  type ProfileErrors,
  type ProfileField,
  type ProfileFormValues,
} from '../lib/profile-form.ts';

function Avatar({ user }: { user: SessionUser }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (user.avatar && failedSrc !== user.avatar) {
    const src = user.avatar;
    return (
      <img
        className="avatar"
        src={src}
        alt=""
        width={88}
        height={88}
        referrerPolicy="no-referrer"
        onError={() => setFailedSrc(src)}
      />
    );
  }
  return (
    <span className="avatar avatar--initials" aria-hidden="true" data-testid="avatar-initials">
      {initials(user.name)}
    </span>
  );
}

export function ProfileCard({
  user,
  editing,
  onEdit,
  onDone,
}: {
  user: SessionUser;
  editing: boolean;
  onEdit: () => void;
  onDone: () => void;
}) {
  const titleId = useId();
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const [saved, setSaved] = useState(false);
  const since = memberSince(user.created_at);

  function finish(didSave: boolean) {
    setSaved(didSave);
    onDone();
    requestAnimationFrame(() => editButtonRef.current?.focus());
  }

  return (
    <section className="card profile-card" aria-labelledby={titleId} data-testid="profile-card">
      <div className="profile-card__identity">
        <Avatar user={user} />
        <div className="profile-card__names">
          <h2 id={titleId} className="profile-card__name">
            {user.name}
          </h2>
          {user.email_verified ? (
            <span className="badge badge--verified" data-testid="verified-badge">
              <ShieldCheckIcon size={14} />
              Verified
            </span>
          ) : (
            <span className="badge badge--unverified">Not verified</span>
          )}
        </div>
      </div>

      <ul className="profile-card__facts">
        <li>
          <MailIcon size={16} />
          <span className="profile-card__email">{user.email}</span>
        </li>
        {user.phone && (
          <li>
            <PhoneIcon size={16} />
            <span>{user.phone}</span>
          </li>
        )}
        {user.location && (
          <li>
            <MapPinIcon size={16} />
            <span>{user.location}</span>
          </li>
        )}
      </ul>
      {user.bio && <p className="profile-card__bio">{user.bio}</p>}
      {since && <p className="profile-card__since">Member since {since}</p>}

      <div role="status" className="profile-card__status">
        {saved && !editing ? 'Profile updated' : ''}
      </div>

      {editing ? (
        <ProfileForm user={user} onCancel={() => finish(false)} onSaved={() => finish(true)} />
      ) : (
        <button
          ref={editButtonRef}
          type="button"
          className="btn btn--outline btn--block"
          onClick={() => {
            setSaved(false);
            onEdit();
          }}
        >
          Edit Profile
        </button>
      )}
    </section>
  );
}

function ProfileForm({
  user,
  onCancel,
  onSaved,
}: {
  user: SessionUser;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const idBase = useId();
  const id = (field: ProfileField) => `${idBase}-${field}`;
  const errorId = (field: ProfileField) => `${idBase}-${field}-error`;
  const nameRef = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState<ProfileFormValues>(() => profileFormValues(user));
  const [errors, setErrors] = useState<ProfileErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    nameRef.current?.focus();
  }, []);

  const set = (field: ProfileField) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    const found = validateProfile(values);
    setErrors(found);
    setFormError(null);
    const firstInvalid = (Object.keys(found) as ProfileField[])[0];
    if (firstInvalid) {
      document.getElementById(id(firstInvalid))?.focus();
      return;
    }
    const changes = profileChanges(values, user);
    if (Object.keys(changes).length === 0) {
      onSaved();
      return;
    }
    setSaving(true);
    try {
      const updated = toSessionUser(await updateProfile(changes));
      if (!updated) throw new Error('Unexpected profile response');
      useSessionStore.getState().setSession({ user: updated });
      onSaved();
    } catch (err) {
      setSaving(false);
      const { fields, other } = err instanceof ApiError ? errorsFromDetails(err.details) : { fields: {}, other: [] };
      setErrors(fields);
      const hasFieldErrors = Object.keys(fields).length > 0;
      setFormError(hasFieldErrors && other.length === 0 ? 'Please correct the highlighted fields' : [errorMessage(err), ...other].join(' '));
    }
  }

  const fieldProps = (field: ProfileField) => ({
    id: id(field),
    name: field,
    value: values[field],
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? errorId(field) : undefined,
  });

  const fieldError = (field: ProfileField): ReactNode =>
    errors[field] ? (
      <p id={errorId(field)} className="field__hint field__hint--error">
        {errors[field]}
      </p>
    ) : null;

  return (
    <form className="profile-form" onSubmit={handleSubmit} noValidate aria-label="Edit profile">
      {formError && <Alert tone="error">{formError}</Alert>}

      <div className="field">
        <label htmlFor={id('name')} className="field__label">
          Full name
        </label>
        <input
          ref={nameRef}
          className="input"
          type="text"
          autoComplete="name"
          maxLength={PROFILE_LIMITS.name}
          required
          {...fieldProps('name')}
          onChange={(e) => set('name')(e.target.value)}
        />
        {fieldError('name')}
      </div>

      <div className="field">
        <label htmlFor={id('avatar')} className="field__label">
          Avatar URL <span className="field__optional">(optional)</span>
        </label>
        <input
          className="input"
          type="url"
          inputMode="url"
          placeholder="https://"
          maxLength={PROFILE_LIMITS.avatar}
          {...fieldProps('avatar')}
          onChange={(e) => set('avatar')(e.target.value)}
        />
        {fieldError('avatar')}
      </div>

      <div className="field">
        <label htmlFor={id('phone')} className="field__label">
          Phone <span className="field__optional">(optional)</span>
        </label>
        <input
          className="input"
          type="tel"
          autoComplete="tel"
          maxLength={PROFILE_LIMITS.phone}
          {...fieldProps('phone')}
          onChange={(e) => set('phone')(e.target.value)}
        />
        {fieldError('phone')}
      </div>

      <div className="field">
        <label htmlFor={id('location')} className="field__label">
          Location <span className="field__optional">(optional)</span>
        </label>
        <input
          className="input"
          type="text"
          autoComplete="address-level2"
          maxLength={PROFILE_LIMITS.location}
          {...fieldProps('location')}
          onChange={(e) => set('location')(e.target.value)}
        />
        {fieldError('location')}
      </div>

      <div className="field">
        <div className="field__label-row">
          <label htmlFor={id('bio')} className="field__label">
            Bio <span className="field__optional">(optional)</span>
          </label>
          <span className="field__counter" aria-hidden="true">
            {[...values.bio].length}/{PROFILE_LIMITS.bio}
          </span>
        </div>
        <textarea
          className="input input--textarea"
          rows={4}
          maxLength={PROFILE_LIMITS.bio}
          {...fieldProps('bio')}
          onChange={(e) => set('bio')(e.target.value)}
        />
        {fieldError('bio')}
      </div>

      <div className="profile-form__actions">
        <button type="submit" className="btn btn--primary" disabled={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </button>
        <button type="button" className="btn btn--outline" onClick={onCancel} disabled={saving}>
          Cancel
        </button>
      </div>
    </form>
  );
}
