import { useEffect, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { Field } from './field';

const SEARCH_DEBOUNCE_MS = 250;

type SearchBoxProps = {
  value: string;
  onSearch: (value: string) => void;
  inputRef: Ref<HTMLInputElement>;
  /** What the search looks in, shown while the field is empty. */
  placeholder: string;
};

/**
 * A search field that reports what is typed after a short pause. It follows `value` when it
 * changes from outside (back button, a link).
 */
export function SearchBox({ value, onSearch, inputRef, placeholder }: SearchBoxProps) {
  const [draft, setDraft] = useState(value);
  const [lastValue, setLastValue] = useState(value);
  const timer = useRef<number | undefined>(undefined);
  // A search still pending when the page goes away must not navigate back to it.
  useEffect(() => () => window.clearTimeout(timer.current), []);

  if (value !== lastValue) {
    setLastValue(value);
    setDraft(value);
  }

  const commit = (text: string) => {
    window.clearTimeout(timer.current);
    if (text.trim() !== value.trim()) onSearch(text);
  };

  const onChange = (text: string) => {
    setDraft(text);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => commit(text), SEARCH_DEBOUNCE_MS);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === 'Escape') {
      commit(event.currentTarget.value);
      // Leave the field so the list's keys (j/k, Enter) work at once.
      event.currentTarget.blur();
    }
  };

  return (
    <Field label="Search" inline className="search-field">
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          type="search"
          name="q"
          placeholder={placeholder}
          autoComplete="off"
          value={draft}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
      )}
    </Field>
  );
}
