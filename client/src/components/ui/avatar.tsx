import { useState } from 'react';
import { initials } from '../../lib/initials.ts';

/**
 * A person's photo, or their initials when there is none or it fails to load. Decorative: the
 * name is always said beside it. `className` is the look (`avatar`, `testimonial-card__avatar`);
 * the initials add `<className>--initials`.
 */
export function Avatar({
  name,
  src,
  size,
  className,
  lazy = false,
  initialsTestId,
}: {
  name: string;
  src: string | null;
  size: number;
  className: string;
  lazy?: boolean;
  initialsTestId?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) {
    return (
      <img
        className={className}
        src={src}
        alt=""
        width={size}
        height={size}
        loading={lazy ? 'lazy' : undefined}
        referrerPolicy="no-referrer"
        onError={() => setFailed(src)}
      />
    );
  }
  return (
    <span className={`${className} ${className}--initials`} aria-hidden="true" data-testid={initialsTestId}>
      {initials(name)}
    </span>
  );
}
