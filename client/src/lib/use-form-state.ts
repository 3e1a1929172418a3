import { useId, useState } from 'react';

type FieldErrors<V> = Partial<Record<keyof V, string>>;
type TextKey<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/**
 * The state of a small form: its values and the problem of each field. Changing a field clears
 * its problem; `field(name)` gives a text field its id, value, error and change handler, and
 * `checked(found, order)` shows the problems found and focuses the first one, in form order.
 */
export function useFormState<V extends object>(initial: V) {
  const idBase = useId();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});

  const idOf = (name: keyof V & string) => `${idBase}-${name}`;

  function set<K extends keyof V>(name: K, value: V[K]) {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));
  }

  function field<K extends TextKey<V>>(name: K) {
    return {
      id: idOf(name),
      value: values[name] as string,
      error: errors[name],
      onChange: (value: string) => set(name, value as V[K]),
    };
  }

  /** Shows `found` and focuses its first field in `order`; true when there is nothing to show. */
  function checked(found: FieldErrors<V>, order: readonly (keyof V & string)[], focus = (name: keyof V & string) => document.getElementById(idOf(name))?.focus()): boolean {
    setErrors(found);
    const first = order.find((name) => found[name]);
    if (first) focus(first);
    return first === undefined;
  }

  return { values, setValues, errors, setErrors, set, field, idOf, checked };
}
