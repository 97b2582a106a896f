import { describe, expect, it } from 'vitest';
import { cookiePathsFor, cookieValues, sessionCookieName, sessionToken } from './session-cookie';

describe('the session cookie in a Cookie header', () => {
  it('counts every copy of the name, however spaced, and no cookie whose name merely contains it', () => {
    expect(cookieValues('hqa_session=a; x_hqa_session=b;hqa_session=c ; hqa_session_x=d', 'hqa_session')).toEqual(['a', 'c']);
    expect(cookieValues(undefined, 'hqa_session')).toEqual([]);
  });
  it('believes one copy only', () => {
    expect(sessionToken('theme=dark; hqa_session=tok', 'hqa_session')).toBe('tok');
    expect(sessionToken('hqa_session=junk; hqa_session=tok', 'hqa_session')).toBeUndefined();
    expect(sessionToken('hqa_session=', 'hqa_session')).toBeUndefined();
    expect(sessionToken('hqa_session=tok', '__Host-hqa_session')).toBeUndefined();
  });
  it('is __Host- prefixed under HTTPS', () => {
    expect(sessionCookieName(true)).toBe('__Host-hqa_session');
    expect(sessionCookieName(false)).toBe('hqa_session');
  });
});

describe('the paths a copy sent to a request may live on', () => {
  it('are / and every prefix, with and without a trailing slash', () => {
    expect(cookiePathsFor('/api/items/12')).toEqual(['/', '/api', '/api/', '/api/items', '/api/items/', '/api/items/12']);
    expect(cookiePathsFor('/')).toEqual(['/']);
  });
});
