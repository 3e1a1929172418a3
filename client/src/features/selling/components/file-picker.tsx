import { useId, type ReactNode } from 'react';

/**
 * A file input behind the button that is its label (a real input, so it works with the keyboard
 * and screen readers), the hint under it, and why some picked files were not taken. The input is
 * described by the hint and by those problems; the parent decides what to keep.
 */
export function FilePicker({
  accept,
  disabled,
  onFiles,
  problems,
  inputClassName = 'sr-only',
  buttonClassName,
  button,
  hintClassName,
  hint,
}: {
  accept: string;
  disabled: boolean;
  onFiles: (files: File[]) => void;
  problems: readonly string[];
  inputClassName?: string;
  buttonClassName: string;
  button: ReactNode;
  hintClassName: string;
  hint: ReactNode;
}) {
  const inputId = useId();
  const hintId = useId();
  const problemsId = useId();
  return (
    <>
      <input
        id={inputId}
        className={inputClassName}
        type="file"
        accept={accept}
        multiple
        disabled={disabled}
        aria-describedby={[hintId, problems.length > 0 ? problemsId : ''].filter(Boolean).join(' ')}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = ''; // picking the same file again still counts
          if (files.length > 0) onFiles(files);
        }}
      />
      <label htmlFor={inputId} className={buttonClassName}>
        {button}
      </label>
      <p id={hintId} className={hintClassName}>
        {hint}
      </p>
      {problems.length > 0 && (
        <ul id={problemsId} className="photo-drop__problems" role="alert">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </>
  );
}
