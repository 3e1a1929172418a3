import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ERROR_CODES, ErrorCode } from '@common/error-codes.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { useFieldProblems } from '../../../lib/use-field-problems.ts';
import { login, resendVerification } from '../api/auth-api.ts';
import { redirectTarget } from '../lib/redirect-target.ts';
import { useSessionStore } from '../../../lib/session-store.ts';
import { AuthCard } from './auth-card.tsx';
import { EmailField } from './email-field.tsx';
import { TotpCodeField, useTotpCode } from './totp-code-field.tsx';
import { PasswordField } from './password-field.tsx';
import './auth.css';

const EMAIL_NOT_VERIFIED = ERROR_CODES.EMAIL_NOT_VERIFIED.message;

type ResendState =
  | { status: 'idle' }
  | { status: 'sending' }
  | { status: 'sent' }
  | { status: 'error'; message: string };

function isEmailNotVerified(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.code === ErrorCode.EMAIL_NOT_VERIFIED || error.message === EMAIL_NOT_VERIFIED)
  );
}

export function LoginScreen() {
  useDocumentTitle('Sign In');
  const navigate = useNavigate();
  const location = useLocation();
  const setSession = useSessionStore((s) => s.setSession);
  const fields = useFieldProblems(['email', 'password'] as const);

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notVerified, setNotVerified] = useState(false);
  const [resend, setResend] = useState<ResendState>({ status: 'idle' });
  // Shown once the server asked for the second factor; stays for the retries that follow.
  const [askCode, setAskCode] = useState(false);
  const totpCode = useTotpCode();
  const codeId = totpCode.field.id;
  const [focusCode, setFocusCode] = useState(0);

  useEffect(() => {
    if (focusCode > 0) document.getElementById(codeId)?.focus();
  }, [focusCode, codeId]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    setError(null);
    setNotVerified(false);
    setResend({ status: 'idle' });
    fields.clear();
    totpCode.setError(null);
    const totp = totpCode.code;
    if (askCode && !totp) {
      totpCode.setError('Enter the code from your authenticator app');
      setSubmitting(false);
      setFocusCode((n) => n + 1);
      return;
    }
    try {
      const result = await login({ email: email.trim(), password, ...(askCode ? { totp } : {}) });
      setSession({
        accessToken: result.accessToken,
        refreshToken: result.refreshToken,
        user: result.user,
      });
      navigate(redirectTarget(location.state), { replace: true });
    } catch (err) {
      if (isEmailNotVerified(err)) setNotVerified(true);
      else if (err instanceof ApiError && err.code === ErrorCode.TOTP_REQUIRED) {
        // The password was right; the account signs in with a second factor too.
        setAskCode(true);
        setFocusCode((n) => n + 1);
      } else if (fields.showServer(err)) {
        // Said at the fields it is about (a malformed address the browser let through).
      } else {
        setError(errorMessage(err));
        if (askCode) {
          totpCode.clear();
          setFocusCode((n) => n + 1);
        }
      }
      setSubmitting(false);
    }
  }

  async function handleResend() {
    const address = email.trim();
    if (!address) {
      setResend({ status: 'error', message: 'Please enter your email address first' });
      return;
    }
    setResend({ status: 'sending' });
    try {
      await resendVerification(address);
      setResend({ status: 'sent' });
    } catch {
      setResend({ status: 'error', message: 'Failed to send verification email' });
    }
  }

  return (
    <AuthCard
      title="Welcome Back"
      subtitle="Sign in to bid, chat with sellers and buy with escrow protection."
      testId="login-screen"
      footer={
        <p>
          Don&apos;t have an account?{' '}
          <Link to="/register" className="text-link">
            Create one
          </Link>
        </p>
      }
    >
      {error && <Alert tone="error">{error}</Alert>}

      {notVerified && (
        <Alert tone="info" title={EMAIL_NOT_VERIFIED} testId="email-not-verified">
          <p>Please verify your email address to sign in. Check your inbox for the link.</p>
          <button
            type="button"
            className="btn btn--outline btn--sm alert__action"
            onClick={handleResend}
            disabled={resend.status === 'sending'}
          >
            {resend.status === 'sending' ? 'Sending...' : 'Resend Verification Email'}
          </button>
          {resend.status === 'sent' && (
            <p className="alert__result alert__result--success">Verification email sent! Check your inbox.</p>
          )}
          {resend.status === 'error' && (
            <p className="alert__result alert__result--error">{resend.message}</p>
          )}
        </Alert>
      )}

      <form className="auth-form" onSubmit={handleSubmit}>
        <EmailField id={fields.idOf('email')} value={email} onChange={fields.edit('email', setEmail)} error={fields.problems.email} />

        <PasswordField
          id={fields.idOf('password')}
          name="password"
          label="Password"
          value={password}
          onChange={fields.edit('password', setPassword)}
          error={fields.problems.password}
          autoComplete="current-password"
          labelAside={
            <Link to="/forgot-password" className="text-link field__aside">
              Forgot password?
            </Link>
          }
        />

        {askCode && (
          <TotpCodeField
            {...totpCode.field}
            hint="Open your authenticator app and enter the 6-digit code it shows for LuxeMotors. No phone? A recovery code works too."
          />
        )}

        <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={submitting}>
          {submitting ? 'Signing in...' : 'Sign In'}
        </button>
      </form>
    </AuthCard>
  );
}
