/** Where a 0-based offset falls in (possibly multi-line) program text. */
export function locate(source: string, position: number): { line: number; column: number; text: string } {
  const at = Math.min(Math.max(position, 0), source.length);
  const start = source.lastIndexOf('\n', at - 1) + 1;
  const newline = source.indexOf('\n', at);
  const end = newline === -1 ? source.length : newline;
  return { line: source.slice(0, start).split('\n').length, column: at - start, text: source.slice(start, end) };
}

/**
 * A program error with its position marked: the offending line of the program and a caret
 * under the character the error is about. Tabs become single spaces in both lines so the
 * caret stays aligned in the monospace block.
 */
export function ProgramErrorView({ source, message, position }: { source: string; message: string; position?: number }) {
  const where = position === undefined ? null : locate(source, position);
  return (
    <div className="tryit-program-error" data-testid="tryit-program-error">
      <p className="error">
        {message}
        {where && (
          <span className="tryit-position" data-testid="tryit-error-position">
            {' '}
            (line {where.line}, column {where.column + 1})
          </span>
        )}
      </p>
      {where && (
        <pre className="tryit-caret" aria-hidden="true">
          <span data-testid="tryit-caret-source">{where.text.replace(/\t/g, ' ')}</span>
          {'\n'}
          <span className="tryit-caret-marker" data-testid="tryit-caret-marker">
            {`${' '.repeat(where.column)}^`}
          </span>
        </pre>
      )}
    </div>
  );
}
