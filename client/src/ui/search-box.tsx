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
 * Whether a new value from outside replaces what the field holds. Not the echo of the box's own
 * search: typing goes on during the pause's search, and a slow page that put the searched text
 * back into the field lost the keys typed meanwhile ("quetzal" searched as "quezal").
 */
export function valueReplacesDraft(value: string, searched: string | null): boolean {
  return searched === null || value.trim() !== searched.trim();
}

/**
 * A search field that reports what is typed after a short pause. It follows `value` when it
 * changes from outside (back button, a link).
 */
export function SearchBox({ value, onSearch, inputRef, placeholder }: SearchBoxProps) {
  const [draft, setDraft] = useState(value);
  const [lastValue, setLastValue] = useState(value);
  /** What this box last searched, until its value comes back. */
  const [searched, setSearched] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  // A search still pending when the page goes away must not navigate back to it.
  useEffect(() => () => window.clearTimeout(timer.current), []);

  if (value !== lastValue) {
    setLastValue(value);
    if (valueReplacesDraft(value, searched)) setDraft(value);
    setSearched(null);
  }

  const commit = (text: string) => {
    window.clearTimeout(timer.current);
    if (text.trim() === value.trim()) return;
    setSearched(text);
    onSearch(text);
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
