import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert.tsx';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { CharCounter, TextAreaField, TextField } from '../../../components/ui/form-field.tsx';
import { MailIcon, MapPinIcon, PhoneIcon } from '../../../components/ui/icons.tsx';
import { VerifiedBadge } from '../../../components/ui/verified-badge.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { toSessionUser, useSessionStore, type SessionUser } from '../../../lib/session-store.ts';
import { useFormState } from '../../../lib/use-form-state.ts';
import { updateProfile } from '../api/profile.ts';
import {
  errorsFromDetails,
  memberSince,
  PROFILE_LIMITS,
  profileChanges,
  profileFormValues,
  validateProfile,
  type ProfileField,
  type ProfileFormValues,
} from '../lib/profile-form.ts';

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
      <div className="cluster profile-card__identity">
        <Avatar name={user.name} src={user.avatar} size={88} className="profile-card__avatar" initialsTestId="avatar-initials" />
        <div className="profile-card__names">
          <h2 id={titleId} className="profile-card__name">
            {user.name}
          </h2>
          {user.email_verified ? (
            <VerifiedBadge testId="verified-badge" />
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
  const form = useFormState<ProfileFormValues>(profileFormValues(user));
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const nameId = form.idOf('name');

  useEffect(() => {
    document.getElementById(nameId)?.focus();
  }, [nameId]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    setFormError(null);
    const found = validateProfile(form.values);
    if (!form.checked(found, Object.keys(found) as ProfileField[])) return;
    const changes = profileChanges(form.values, user);
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
      form.setErrors(fields);
      const hasFieldErrors = Object.keys(fields).length > 0;
      setFormError(hasFieldErrors && other.length === 0 ? 'Please correct the highlighted fields' : [errorMessage(err), ...other].join(' '));
    }
  }

  return (
    <form className="profile-form" onSubmit={handleSubmit} noValidate aria-label="Edit profile">
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextField {...form.field('name')} name="name" label="Full name" autoComplete="name" maxLength={PROFILE_LIMITS.name} required />
      <TextField
        {...form.field('avatar')}
        name="avatar"
        label="Avatar URL"
        optional
        type="url"
        inputMode="url"
        placeholder="https://"
        maxLength={PROFILE_LIMITS.avatar}
      />
      <TextField {...form.field('phone')} name="phone" label="Phone" optional type="tel" autoComplete="tel" maxLength={PROFILE_LIMITS.phone} />
      <TextField
        {...form.field('location')}
        name="location"
        label="Location"
        optional
        autoComplete="address-level2"
        maxLength={PROFILE_LIMITS.location}
      />
      <TextAreaField
        {...form.field('bio')}
        name="bio"
        label="Bio"
        optional
        aside={<CharCounter count={[...form.values.bio].length} max={PROFILE_LIMITS.bio} />}
        rows={4}
        maxLength={PROFILE_LIMITS.bio}
      />

      <div className="cluster profile-form__actions">
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
