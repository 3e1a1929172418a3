import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { isAcceptablePassword, PASSWORD_RULES_MESSAGE } from '@common/password-rules.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { MailIcon } from '../../../components/ui/icons.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { register } from '../api/auth-api.ts';
import { confirmMismatch, PASSWORDS_DO_NOT_MATCH } from '../lib/password-checklist.ts';
import { AuthCard } from './auth-card.tsx';
import { MismatchHint, PasswordChecklist } from './password-checklist.tsx';
import { PasswordField } from './password-field.tsx';
import { ResendVerificationButton } from './resend-verification-button.tsx';
import './auth.css';

export function RegisterScreen() {
  useDocumentTitle('Sign Up');
  const nameId = useId();
  const emailId = useId();
  const passwordId = useId();
  const confirmId = useId();
  const checklistId = useId();
  const mismatchId = useId();

  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);

  const mismatch = confirmMismatch(password, confirm);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    if (!name.trim()) {
      setError('Please enter your full name');
      return;
    }
    if (!isAcceptablePassword(password)) {
      setError(PASSWORD_RULES_MESSAGE);
      return;
    }
    if (password !== confirm) {
      setError(PASSWORDS_DO_NOT_MATCH);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const address = email.trim();
      await register({ name: name.trim(), email: address, password });
      setRegisteredEmail(address);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSubmitting(false);
    }
  }

  if (registeredEmail) {
    return (
      <AuthCard
        title="Check Your Email"
        icon={<MailIcon size={40} />}
        testId="register-success"
        subtitle={
          <>
            We sent a verification link to <strong>{registeredEmail}</strong>. Open it to activate
            your account — the link is valid for 24 hours.
          </>
        }
      >
        <div className="auth-actions">
          <ResendVerificationButton email={registeredEmail} />
          <Link to="/login" className="btn btn--primary btn--block">
            Go to Login
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Create Your Account"
      subtitle="Join LuxeMotors to bid, chat with sellers and buy with escrow protection."
      testId="register-screen"
      footer={
        <p>
          Already have an account?{' '}
          <Link to="/login" className="text-link">
            Log in
          </Link>
        </p>
      }
    >
      {error && <Alert tone="error">{error}</Alert>}

      <form className="auth-form" onSubmit={handleSubmit}>
        <div className="field">
          <label htmlFor={nameId} className="field__label">
            Full name
          </label>
          <input
            id={nameId}
            className="input"
            type="text"
            name="name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            autoComplete="name"
            maxLength={100}
            required
          />
        </div>

        <div className="field">
          <label htmlFor={emailId} className="field__label">
            Email
          </label>
          <input
            id={emailId}
            className="input"
            type="email"
            name="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            required
          />
        </div>

        <div className="field-group">
          <PasswordField
            id={passwordId}
            name="password"
            label="Password"
            value={password}
            onChange={setPassword}
            autoComplete="new-password"
            describedBy={checklistId}
          />
          <PasswordChecklist id={checklistId} password={password} />
        </div>

        <div className="field-group">
          <PasswordField
            id={confirmId}
            name="confirmPassword"
            label="Confirm password"
            value={confirm}
            onChange={setConfirm}
            autoComplete="new-password"
            toggleName="confirm password"
            describedBy={mismatchId}
            invalid={mismatch}
          />
          <MismatchHint id={mismatchId} show={mismatch} />
        </div>

        <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={submitting}>
          {submitting ? 'Creating account...' : 'Create Account'}
        </button>
      </form>
    </AuthCard>
  );
}
