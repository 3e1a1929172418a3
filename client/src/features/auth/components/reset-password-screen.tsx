import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert.tsx';
import { AlertIcon } from '../../../components/ui/icons.tsx';
import { api } from '../../../lib/api-client.ts';
import { useSubmission } from '../../../lib/use-submission.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { resetPassword } from '../api/auth-api.ts';
import { newPasswordError, PASSWORDS_DO_NOT_MATCH } from '../lib/password-checklist.ts';
import { useFieldProblems } from '../../../lib/use-field-problems.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { AuthCard } from './auth-card.tsx';
import { DoneThenLogin } from './done-then-login.tsx';
import { PasswordWithConfirm } from './password-with-confirm.tsx';
import './auth.css';

const MISSING_TOKEN = 'Invalid or missing reset token';

type ResetField = 'password' | 'confirm';
const FIELD_ORDER: readonly ResetField[] = ['password', 'confirm'];

const getProfile = () => api.get<unknown>('/api/users/profile');

export function ResetPasswordScreen() {
  useDocumentTitle('Reset Password');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';

  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { submitting, error, setError, submit } = useSubmission();
  const [done, setDone] = useState(false);
  const fields = useFieldProblems(FIELD_ORDER, { newPassword: 'password' });

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setError(null);
    const passwordProblem = newPasswordError(password, confirm);
    if (fields.show(passwordProblem === null ? {} : passwordProblem === PASSWORDS_DO_NOT_MATCH ? { confirm: passwordProblem } : { password: passwordProblem })) return;
    await submit(async () => {
      try {
        await resetPassword(token, password);
      } catch (err) {
        // A refused new password is said at its field; an expired link stays the form's alert.
        if (fields.showServer(err)) return;
        throw err;
      }
      setDone(true);
      // The server has ended every session of that user. If this browser holds one of them, the
      // next authenticated call fails to refresh and clears it; make that call now (a session of
      // another account is left alone).
      if (useSessionStore.getState().refreshToken) void getProfile().catch(() => undefined);
    });
  }

  if (!token) {
    return (
      <AuthCard title="Reset Password" icon={<AlertIcon size={40} />} testId="reset-password-invalid">
        <p className="callout tone-error auth-error-text" role="alert">
          {MISSING_TOKEN}
        </p>
        <p className="auth-note">Open the link from your reset email, or request a new one.</p>
        <div className="auth-actions">
          <Link to="/forgot-password" className="btn btn--primary btn--block">
            Request a New Link
          </Link>
          <Link to="/login" className="btn btn--outline btn--block">
            Back to Login
          </Link>
        </div>
      </AuthCard>
    );
  }

  if (done) {
    return (
      <DoneThenLogin
        title="Password Reset!"
        testId="reset-password-success"
        subtitle="Your password has been changed. For your security, all devices have been signed out and must log in again with the new password."
      />
    );
  }

  return (
    <AuthCard
      title="Set a New Password"
      subtitle="Choose a strong password. Every device signed in to your account will need to log in again."
      testId="reset-password-screen"
      footer={
        <p>
          <Link to="/login" className="text-link">
            Back to Login
          </Link>
        </p>
      }
    >
      {error && <Alert tone="error">{error}</Alert>}
      <form className="auth-form" onSubmit={handleSubmit}>
        <PasswordWithConfirm
          password={password}
          confirm={confirm}
          onPassword={fields.edit('password', setPassword)}
          onConfirm={fields.edit('confirm', setConfirm)}
          passwordId={fields.idOf('password')}
          confirmId={fields.idOf('confirm')}
          passwordError={fields.problems.password}
          confirmError={fields.problems.confirm}
          label="New password"
          confirmLabel="Confirm new password"
          name="newPassword"
        />
        <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={submitting}>
          {submitting ? 'Resetting...' : 'Reset Password'}
        </button>
      </form>
    </AuthCard>
  );
}
