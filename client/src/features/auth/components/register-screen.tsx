import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert.tsx';
import { TextField } from '../../../components/ui/form-field.tsx';
import { useSubmission } from '../../../lib/use-submission.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { register } from '../api/auth-api.ts';
import { newPasswordError, PASSWORDS_DO_NOT_MATCH } from '../lib/password-checklist.ts';
import { useFieldProblems } from '../../../lib/use-field-problems.ts';
import { AuthCard, EmailSentCard } from './auth-card.tsx';
import { EmailField } from './email-field.tsx';
import { PasswordWithConfirm } from './password-with-confirm.tsx';
import { ResendVerificationButton } from './resend-verification-button.tsx';
import './auth.css';

type RegisterField = 'name' | 'email' | 'password' | 'confirm';
const FIELD_ORDER: readonly RegisterField[] = ['name', 'email', 'password', 'confirm'];
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What is wrong with the form before it is sent, field by field (empty: nothing). */
function registerProblems(name: string, email: string, password: string, confirm: string): Partial<Record<RegisterField, string>> {
  const problems: Partial<Record<RegisterField, string>> = {};
  if (!name.trim()) problems.name = 'Please enter your full name';
  if (!email.trim()) problems.email = 'Please enter your email address';
  else if (!EMAIL_SHAPE.test(email.trim())) problems.email = 'Enter an email address like name@example.com';
  const passwordProblem = newPasswordError(password, confirm);
  if (passwordProblem === PASSWORDS_DO_NOT_MATCH) problems.confirm = passwordProblem;
  else if (passwordProblem) problems.password = passwordProblem;
  return problems;
}

export function RegisterScreen() {
  useDocumentTitle('Sign Up');
  const fields = useFieldProblems(FIELD_ORDER);

  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { submitting, error, setError, submit } = useSubmission();
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);

  const { problems, edit, idOf } = fields;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setError(null);
    if (fields.show(registerProblems(name, email, password, confirm))) return;
    await submit(async () => {
      const address = email.trim();
      try {
        await register({ name: name.trim(), email: address, password });
      } catch (err) {
        // The server's validation messages land beside the fields they are about.
        if (fields.showServer(err)) return;
        throw err;
      }
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

      <form className="auth-form" onSubmit={handleSubmit} noValidate>
        <TextField
          id={idOf('name')}
          label="Full name"
          name="name"
          value={name}
          onChange={edit('name', setName)}
          error={problems.name}
          errorTestId="error-name"
          autoComplete="name"
          maxLength={100}
          required
        />

        <EmailField id={idOf('email')} value={email} onChange={edit('email', setEmail)} error={problems.email} />

        <PasswordWithConfirm
          password={password}
          confirm={confirm}
          onPassword={edit('password', setPassword)}
          onConfirm={edit('confirm', setConfirm)}
          passwordId={idOf('password')}
          confirmId={idOf('confirm')}
          passwordError={problems.password}
          confirmError={problems.confirm}
        />

        <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={submitting}>
          {submitting ? 'Creating account...' : 'Create Account'}
        </button>
      </form>
    </AuthCard>
  );
}
