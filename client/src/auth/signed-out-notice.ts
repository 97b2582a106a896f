/**
 * Why the page was signed out, when the server said so: a request that carried several session
 * cookies (`session_cookie_conflict`: a page elsewhere on this host planted copies, which the
 * answer cleared) ends the session in this browser, and the login page should say why rather
 * than look like an ordinary expiry. Kept until the next successful login.
 */
let notice: string | null = null;

export function setSignedOutNotice(message: string): void {
  notice = message;
}

export function signedOutNotice(): string | null {
  return notice;
}

export function clearSignedOutNotice(): void {
  notice = null;
}
