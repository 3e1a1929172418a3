import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert.tsx';
import { useSubmission } from '../../../lib/use-submission.ts';
import { useFieldProblems } from '../../../lib/use-field-problems.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { forgotPassword } from '../api/auth-api.ts';
import { AuthCard, EmailSentCard } from './auth-card.tsx';
import { EmailField } from './email-field.tsx';
import './auth.css';

export function ForgotPasswordScreen() {
  useDocumentTitle('Forgot Password');
  const [email, setEmail] = useState('');
  const { submitting, error, submit } = useSubmission();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const fields = useFieldProblems(['email'] as const);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (!address) return;
    await submit(async () => {
      try {
        await forgotPassword(address);
      } catch (err) {
        if (fields.showServer(err)) return;
        throw err;
      }
      fields.clear();
      setSentTo(address);
    });
  }

  const backToLogin = (
    <p>
      <Link to="/login" className="text-link">
        Back to Login
      </Link>
    </p>
  );

  if (sentTo) {
    return (
      <EmailSentCard
        testId="forgot-password-success"
        sent={
          <>
            If an account exists for <strong>{sentTo}</strong>, we have sent a link to reset its
            password. The link is valid for 1 hour.
          </>
        }
        actions={
          <button type="button" className="btn btn--outline btn--block" onClick={() => setSentTo(null)}>
            Send Another Email
          </button>
        }
        footer={backToLogin}
      />
    );
  }

  return (
    <AuthCard
      title="Forgot Your Password?"
      subtitle="Enter the email address of your account and we will send you a link to set a new password."
      testId="forgot-password-screen"
      footer={backToLogin}
    >
      {error && <Alert tone="error">{error}</Alert>}
      <form className="auth-form" onSubmit={handleSubmit}>
        <EmailField id={fields.idOf('email')} value={email} onChange={fields.edit('email', setEmail)} error={fields.problems.email} />
        <button
          type="submit"
          className="btn btn--primary btn--block btn--lg"
          disabled={submitting || email.trim() === ''}
        >
          {submitting ? 'Sending...' : 'Send Reset Link'}
        </button>
      </form>
    </AuthCard>
  );
}
