/**
 * `@username` mentions in a comment. A name is what UsernameSchema allows (letters, digits,
 * `_ . -`); a mention starts at the text's start or after a character a name cannot hold (so
 * `bob@example.org` names no one), and a trailing `.` or `-` ends the sentence, not the name.
 */
const MENTION = /(?:^|[^A-Za-z0-9_.@-])@([A-Za-z0-9_.-]+)/g;

/** The names mentioned, each once, in order of first mention (case kept as written). */
export function mentionedNames(body: string): string[] {
  const names = new Map<string, string>();
  for (const match of body.matchAll(MENTION)) {
    const name = (match[1] ?? '').replace(/[.-]+$/, '');
    if (name.length >= 2 && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
  }
  return [...names.values()];
}
