import type { Db } from '../../db/database';
import { sessionForToken } from '../auth/sessions';
import { getSettings } from '../settings/settings-queries';
import { findNextClaim, nowIso, type GoldPlace } from './review-queries';
import { buildTask } from './review-service';

/**
 * Runs a claim's reads once at start, writing nothing: the claim's SQL (a few kilobytes) is
 * compiled and cached, and the code from session lookup to the task's JSON has run once.
 * On a server just started, 50 reviewers claiming at once used to pay all of that inside the
 * first claims, each of which the rest waited behind (bench/review.ts, first burst).
 */
export function warmReviewPath(db: Db, rounds = WARM_UP_ROUNDS): void {
  for (let round = 0; round < rounds; round++) warmOnce(db);
}

/**
 * How often the warm-up runs the claim's reads: often enough for V8 to compile the functions on
 * the way past its interpreter (a first burst's claims ran about 2x slower than later ones),
 * a few milliseconds at start.
 */
const WARM_UP_ROUNDS = 50;

function warmOnce(db: Db): void {
  const settings = getSettings(db);
  const now = nowIso();
  // No such session: the lookup's statement and hashing run, nothing is touched.
  sessionForToken(db, 'warm-up-token-that-no-session-has');
  const places: GoldPlace[] = settings.gold_share <= 0 ? ['off'] : ['drawn', 'drained'];
  for (const gold of places) {
    // Reviewer 0 is nobody: no lease, review or assignment is theirs.
    const pick = findNextClaim(db, { reviewerId: 0, now, k: settings.reviews_per_item, filters: { mismatch_first: false }, exclude: [], gold });
    if (pick === null) continue;
    try {
      JSON.stringify(buildTask(db, pick.id, { expires_at: now, token: '' }));
    } catch {
      // A broken row fails its real claim with its name; the warm-up is no place to report it.
    }
  }
}
