import { useState } from 'react';
import { resendVerification } from '../api/auth-api.ts';
import './resend-verification-button.css';

type State = 'idle' | 'sending' | 'sent' | 'failed';

/** 'Resend Verification Email' for a known address, with its result announced politely. */
export function ResendVerificationButton({
  email,
  className = 'btn btn--outline btn--block',
}: {
  email: string;
  className?: string;
}) {
  const [state, setState] = useState<State>('idle');

  async function resend() {
    setState('sending');
    try {
      await resendVerification(email);
      setState('sent');
    } catch {
      setState('failed');
    }
  }

  return (
    <>
      <button type="button" className={className} onClick={resend} disabled={state === 'sending'}>
        {state === 'sending' ? 'Sending...' : 'Resend Verification Email'}
      </button>
      <p className="resend-result" role="status">
        {state === 'sent' && (
          <span className="resend-result--success">Verification email sent! Check your inbox.</span>
        )}
        {state === 'failed' && (
          <span className="resend-result--error">Failed to send verification email</span>
        )}
      </p>
    </>
  );
}
