import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert.tsx';
import { TextField } from '../../../components/ui/form-field.tsx';
import { useSubmission } from '../../../lib/use-submission.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { register } from '../api/auth-api.ts';
import { newPasswordError } from '../lib/password-checklist.ts';
import { AuthCard, EmailSentCard } from './auth-card.tsx';
import { EmailField } from './email-field.tsx';
import { PasswordWithConfirm } from './password-with-confirm.tsx';
import { ResendVerificationButton } from './resend-verification-button.tsx';
import './auth.css';

export function RegisterScreen() {
  useDocumentTitle('Sign Up');
  const nameId = useId();

  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { submitting, error, setError, submit } = useSubmission();
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    if (!name.trim()) {
      setError('Please enter your full name');
      return;
    }
    const passwordProblem = newPasswordError(password, confirm);
    if (passwordProblem) {
      setError(passwordProblem);
      return;
    }
    await submit(async () => {
      const address = email.trim();
      await register({ name: name.trim(), email: address, password });
      setRegisteredEmail(address);
    });
  }

  if (registeredEmail) {
    return (
      <EmailSentCard
        testId="register-success"
        sent={
          <>
            We sent a verification link to <strong>{registeredEmail}</strong>. Open it to activate
            your account — the link is valid for 24 hours.
          </>
        }
        actions={
          <>
            <ResendVerificationButton email={registeredEmail} />
            <Link to="/login" className="btn btn--primary btn--block">
              Go to Login
            </Link>
          </>
        }
      />
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
        <TextField id={nameId} label="Full name" name="name" value={name} onChange={setName} autoComplete="name" maxLength={100} required />

        <EmailField value={email} onChange={setEmail} />

        <PasswordWithConfirm password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />

        <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={submitting}>
          {submitting ? 'Creating account...' : 'Create Account'}
        </button>
      </form>
    </AuthCard>
  );
}
