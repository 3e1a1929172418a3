import { useEffect, useId, useState, type FormEvent } from 'react';
import { isStaff, RECOVERY_CODE_COUNT } from '@common/back-office.ts';
import { ErrorCode } from '@common/error-codes.ts';
import { TotpConfirmSchema } from '@common/schemas/auth.ts';
import { issuesByField } from '@common/validation.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { ShieldCheckIcon } from '../../../components/ui/icons.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { detailsByField } from '../../../lib/field-errors.ts';
import { useSessionStore, type SessionUser } from '../../../lib/session-store.ts';
import { useSubmission } from '../../../lib/use-submission.ts';
import { confirmTotp, setupTotp, type TotpSetup } from '../api/auth-api.ts';
import { TotpCodeField, useTotpCode } from './totp-code-field.tsx';
import './two-factor.css';

type Step =
  | { kind: 'idle' }
  | { kind: 'enrolling'; setup: TotpSetup }
  | { kind: 'codes'; codes: string[] };

/** The secret as people copy it: groups of four. Authenticator apps ignore the spaces. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** Marks the signed-in user's two-factor sign-in as on (the server said so). */
function markEnabled(user: SessionUser) {
  const { user: current, setSession } = useSessionStore.getState();
  if (current && current.id === user.id && !current.totp_enabled) setSession({ user: { ...current, totp_enabled: true } });
}

/**
 * "Two-factor sign-in" in the dashboard's settings: on or off, and its enrolment: a QR code (drawn
 * here from the `otpauth://` address) and the secret for typing in, a code to confirm, then the
 * recovery codes, shown this once. Staff are told the console needs it.
 */
export function TwoFactorSettings({ user }: { user: SessionUser }) {
  const titleId = useId();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const starting = useSubmission();
  const enabled = user.totp_enabled;
  const staff = isStaff(user.role);

  async function start() {
    await starting.submit(async () => {
      try {
        const setup = await setupTotp();
        setStep({ kind: 'enrolling', setup });
      } catch (err) {
        if (err instanceof ApiError && err.code === ErrorCode.TOTP_ALREADY_ENABLED) markEnabled(user);
        throw err;
      }
    });
  }

  return (
    <section className="two-factor" aria-labelledby={titleId} data-testid="two-factor">
      <div className="cluster two-factor__head">
        <span className="icon-disc two-factor__icon">
          <ShieldCheckIcon size={22} />
        </span>
        <div className="cluster two-factor__heading">
          <h3 id={titleId} className="two-factor__title">
            Two-factor sign-in
          </h3>
          <p className="two-factor__status" data-testid="two-factor-status">
            <span className={enabled ? 'status-badge status-badge--done' : 'status-badge status-badge--closed'}>{enabled ? 'On' : 'Off'}</span>
          </p>
        </div>
      </div>

      {staff && !enabled && step.kind !== 'codes' && (
        <div className="alert tone-warning two-factor__staff" role="note" data-testid="console-needs-totp">
          <div className="alert__body">
            <p className="alert__title">The operator console needs two-factor sign-in</p>
            <p>
              Your account can run the back office. Set up an authenticator app below, then sign in with its code to open the
              console.
            </p>
          </div>
        </div>
      )}

      {step.kind === 'idle' && (
        <>
          <p className="two-factor__text">
            {enabled
              ? 'Signing in asks for a code from your authenticator app as well as your password. Lost your phone? Each of your recovery codes signs you in once.'
              : 'Ask for a code from an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password...) each time you sign in, so a stolen password alone cannot open your account.'}
          </p>
          {starting.error && <Alert tone="error">{starting.error}</Alert>}
          {!enabled && (
            <button type="button" className="btn btn--dark btn--sm two-factor__start" onClick={() => void start()} disabled={starting.submitting}>
              {starting.submitting ? 'Starting...' : 'Set Up'}
            </button>
          )}
        </>
      )}

      {step.kind === 'enrolling' && (
        <Enrolment
          setup={step.setup}
          onCancel={() => setStep({ kind: 'idle' })}
          onConfirmed={(codes) => {
            markEnabled(user);
            setStep({ kind: 'codes', codes });
          }}
        />
      )}

      {step.kind === 'codes' && <RecoveryCodes codes={step.codes} onDone={() => setStep({ kind: 'idle' })} />}
    </section>
  );
}

function Enrolment({ setup, onCancel, onConfirmed }: { setup: TotpSetup; onCancel: () => void; onConfirmed: (codes: string[]) => void }) {
  const [qr, setQr] = useState<{ url: string; image: string | null } | null>(null);
  const totpCode = useTotpCode();
  const confirming = useSubmission();

  useEffect(() => {
    let current = true;
    // The QR library is loaded only when someone sets up two-factor sign-in.
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toDataURL(setup.otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 208 }))
      .then((image) => current && setQr({ url: setup.otpauthUrl, image }))
      .catch(() => current && setQr({ url: setup.otpauthUrl, image: null }));
    return () => {
      current = false;
    };
  }, [setup.otpauthUrl]);
  const image = qr?.url === setup.otpauthUrl ? qr.image : undefined;

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { code: totpCode.code };
    const problem = issuesByField(TotpConfirmSchema, body).code ?? (/^\d{6}$/.test(body.code) ? null : 'Enter the 6 digits your app shows');
    totpCode.setError(problem);
    if (problem) {
      totpCode.focus();
      return;
    }
    await confirming.submit(async () => {
      try {
        const { recoveryCodes } = await confirmTotp(body.code);
        onConfirmed(recoveryCodes);
      } catch (err) {
        const { fields } = err instanceof ApiError ? detailsByField(err.details, ['code'] as const) : { fields: {} as { code?: string } };
        if (err instanceof ApiError && (err.code === ErrorCode.INVALID_TOTP || fields.code)) {
          totpCode.setError(fields.code ?? errorMessage(err));
          totpCode.clear();
          totpCode.focus();
          return;
        }
        throw err;
      }
    });
  }

  return (
    <div className="two-factor__enrol">
      <ol className="two-factor__steps">
        <li>
          <p className="two-factor__step-title">Scan this QR code with your authenticator app</p>
          <div className="two-factor__qr-frame">
            {image ? (
              <img src={image} alt="QR code for your authenticator app" width={208} height={208} data-testid="totp-qr" className="two-factor__qr" />
            ) : image === null ? (
              <p className="two-factor__qr-missing">The QR code could not be drawn: type the key below instead.</p>
            ) : (
              <span className="skeleton two-factor__qr-loading" aria-hidden="true" />
            )}
          </div>
        </li>
        <li>
          <p className="two-factor__step-title">Or type this key into the app</p>
          <p className="two-factor__secret">
            <span className="sr-only">Key: </span>
            <code data-testid="totp-secret" data-secret={setup.secret}>
              {grouped(setup.secret)}
            </code>
          </p>
          <p className="two-factor__hint">Time-based, 6 digits, every 30 seconds (the apps&apos; usual settings).</p>
        </li>
        <li>
          <form className="two-factor__confirm" onSubmit={confirm} noValidate aria-label="Confirm two-factor sign-in">
            <TotpCodeField {...totpCode.field} hint="The 6-digit code the app now shows for LuxeMotors." disabled={confirming.submitting} />
            {confirming.error && <Alert tone="error">{confirming.error}</Alert>}
            <div className="cluster">
              <button type="submit" className="btn btn--primary btn--sm" disabled={confirming.submitting}>
                {confirming.submitting ? 'Confirming...' : 'Confirm'}
              </button>
              <button type="button" className="btn btn--outline btn--sm" onClick={onCancel} disabled={confirming.submitting}>
                Cancel
              </button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const titleId = useId();
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const text = `LuxeMotors recovery codes (each signs you in once)\n\n${codes.join('\n')}\n`;

  // Focus the codes' heading, so a screen reader reads what just appeared.
  useEffect(() => {
    document.getElementById(titleId)?.focus();
  }, [titleId]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'luxemotors-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  }

  return (
    <div className="two-factor__codes">
      <Alert tone="success" title="Two-factor sign-in is on">
        <p>From now on, signing in asks for a code from your authenticator app.</p>
      </Alert>
      <h4 id={titleId} className="two-factor__codes-title" tabIndex={-1}>
        Save your recovery codes
      </h4>
      <p className="two-factor__text">
        If you lose your phone, each of these {codes.length === RECOVERY_CODE_COUNT ? 'ten ' : ''}codes signs you in once in place of
        the app&apos;s code. <strong>They are shown only now</strong>: keep them somewhere safe, away from your phone.
      </p>
      <ol className="two-factor__code-list" data-testid="recovery-codes" aria-labelledby={titleId}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="cluster">
        <button type="button" className="btn btn--outline btn--sm" onClick={() => void copy()}>
          Copy Codes
        </button>
        <button type="button" className="btn btn--outline btn--sm" onClick={download}>
          Download
        </button>
        <button type="button" className="btn btn--primary btn--sm" onClick={onDone}>
          I have saved these codes
        </button>
      </div>
      <p className="two-factor__copied" role="status">
        {copied === 'copied' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Copying is not allowed here: select the codes, or download them.' : ''}
      </p>
    </div>
  );
}
