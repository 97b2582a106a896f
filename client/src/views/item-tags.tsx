import type { ItemSummary } from '@shared/api/items';
import type { BiasFlag } from '@shared/generation/bias-guards';
import { OFFLINE_MODEL } from '@shared/domain/generation';

const BIAS_FLAG_TEXT: Record<BiasFlag, { label: string; title: string }> = {
  unchanged_answer: {
    label: 'answer = factual label',
    title: 'The item says the assumption changes the answer, yet its answer equals the factual label.',
  },
  changed_recomputed: {
    label: 'recomputed ≠ factual label',
    title: 'The item says the assumption does not change the answer, yet the verifier’s recomputed answer differs from the factual label.',
  },
};

/** The bias guards an item tripped, or nothing. */
export function BiasFlags({ flags }: { flags: BiasFlag[] }) {
  if (flags.length === 0) return <span className="muted small">none</span>;
  return (
    <span className="bias-flags" data-testid="bias-flags">
      {flags.map((flag) => (
        <span key={flag} className="bias-flag" title={BIAS_FLAG_TEXT[flag].title} data-flag={flag}>
          {BIAS_FLAG_TEXT[flag].label}
        </span>
      ))}
    </span>
  );
}

/** ✓ when the verifier's recomputed answer matches the item's, ✗ when not, — when nothing was recomputed. */
export function VerifierMark({ match }: { match: boolean | null }) {
  if (match === null) {
    return (
      <span className="verdict verdict-none" title="Nothing recomputed: the edit or the program failed" data-testid="verifier-match">
        —<span className="sr-only"> not recomputed</span>
      </span>
    );
  }
  return match ? (
    <span className="verdict verdict-match" title="The recomputed answer matches" data-testid="verifier-match">
      ✓<span className="sr-only"> matches</span>
    </span>
  ) : (
    <span className="verdict verdict-mismatch" title="The recomputed answer differs" data-testid="verifier-match">
      ✗<span className="sr-only"> differs</span>
    </span>
  );
}

/** Who wrote the item: a person, the rule-based offline engine, or a named LLM. */
export function OriginTag({ item }: { item: Pick<ItemSummary, 'origin' | 'model'> }) {
  const detail =
    item.origin === 'offline' ? `${item.model ?? OFFLINE_MODEL}, rule-based, no LLM` : item.origin === 'llm' ? (item.model ?? 'unknown model') : null;
  return (
    <span className="origin-cell">
      <span className={`source-tag origin-${item.origin}`}>{item.origin}</span>
      {detail && <span className="muted small"> {detail}</span>}
    </span>
  );
}

export function ItemStatusTag({ status }: { status: ItemSummary['status'] }) {
  return <span className={`status-tag item-status-${status}`}>{status.replace('_', ' ')}</span>;
}
