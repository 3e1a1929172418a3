import { useState } from 'react';
import { initials } from '../../lib/initials.ts';

/**
 * A person's photo, or their initials when there is none or it fails to load. Decorative: the
 * name is always said beside it. Its ring and initials come from `.avatar` (global.css);
 * `className` is the screen's size (`profile-card__avatar`, `testimonial-card__avatar`), and the
 * initials add `<className>--initials`.
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
        className={`avatar ${className}`}
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
    <span className={`avatar avatar--initials ${className} ${className}--initials`} aria-hidden="true" data-testid={initialsTestId}>
      {initials(name)}
    </span>
  );
}
