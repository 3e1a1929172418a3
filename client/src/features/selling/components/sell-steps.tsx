import { CheckIcon } from '../../../components/ui/icons.tsx';

export type SellStep = 'details' | 'preview' | 'publish';

export const SELL_STEPS: readonly { id: SellStep; label: string }[] = [
  { id: 'details', label: 'Details and photos' },
  { id: 'preview', label: 'Preview' },
  { id: 'publish', label: 'Publish' },
];

/** Where the seller is among the three steps: the ones done are ticked. */
export function SellSteps({ step }: { step: SellStep }) {
  const current = SELL_STEPS.findIndex((s) => s.id === step);
  return (
    <ol className="card sell-steps" aria-label="Steps">
      {SELL_STEPS.map((s, i) => (
        <li
          key={s.id}
          className={i < current ? 'sell-steps__step is-done' : i === current ? 'sell-steps__step is-current' : 'sell-steps__step'}
          aria-current={i === current ? 'step' : undefined}
        >
          <span className="sell-steps__number" aria-hidden="true">
            {i < current ? <CheckIcon size={16} /> : i + 1}
          </span>
          <span className={i === current ? 'sell-steps__label' : 'sell-steps__label sr-only-phone'}>{s.label}</span>
        </li>
      ))}
    </ol>
  );
}
