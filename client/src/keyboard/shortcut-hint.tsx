export type Shortcut = { keys: string[]; action: string };

/** A one-line reminder of the keyboard shortcuts a page offers. */
export function ShortcutHint({ shortcuts }: { shortcuts: Shortcut[] }) {
  return (
    <p className="shortcut-hint" aria-label="Keyboard shortcuts">
      {shortcuts.map(({ keys, action }) => (
        <span key={action} className="shortcut">
          {keys.map((key, index) => (
            <span key={key}>
              {index > 0 && <span className="shortcut-or"> / </span>}
              <kbd>{key}</kbd>
            </span>
          ))}{' '}
          {action}
        </span>
      ))}
    </p>
  );
}
