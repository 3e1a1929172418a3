import { ComingSoon } from '../../../components/ui/coming-soon.tsx';

/** Placeholder: this screen is built in a later issue. */
export function ResetPasswordScreen() {
  return <ComingSoon name="Reset Password" />;
}
