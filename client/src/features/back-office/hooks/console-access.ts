import { createContext, useCallback, useContext } from 'react';
import { ErrorCode } from '@common/error-codes.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useResource } from '../../../lib/use-resource.ts';

/**
 * Why the API turned the console away: the account is not staff (`NOT_ALLOWED`), or its session
 * was not signed in with the second factor (`TOTP_REQUIRED`). Any call of any section may say so;
 * the console then shows what to do instead of the section.
 */
export type ConsoleRefusal = typeof ErrorCode.NOT_ALLOWED | typeof ErrorCode.TOTP_REQUIRED;

export function refusalOf(error: unknown): ConsoleRefusal | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  return error.code === ErrorCode.TOTP_REQUIRED || error.code === ErrorCode.NOT_ALLOWED ? error.code : null;
}

export const ConsoleAccessContext = createContext<(refusal: ConsoleRefusal) => void>(() => undefined);

/** Hands a refusal to the console, then lets the caller handle the error as any other. */
export function useReportRefusal(): (error: unknown) => void {
  const refuse = useContext(ConsoleAccessContext);
  return useCallback(
    (error: unknown) => {
      const refusal = refusalOf(error);
      if (refusal) refuse(refusal);
    },
    [refuse],
  );
}

/** `useResource` for the console: a refusal of access is reported to the console as well. */
export function useConsoleResource<T>(key: string, fetcher: (signal: AbortSignal) => Promise<T>) {
  const report = useReportRefusal();
  return useResource<T>(key, (signal) =>
    fetcher(signal).catch((error: unknown) => {
      if (!signal.aborted) report(error);
      throw error;
    }),
  );
}
