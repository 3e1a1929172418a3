import { ComingSoon } from '../../../components/ui/coming-soon.tsx';

/** Placeholder: this screen is built in a later issue. */
export function TestimonialsScreen() {
  return <ComingSoon name="Testimonials" />;
}
