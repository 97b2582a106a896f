import { useId, useState, type KeyboardEvent } from 'react';
import { COMMENT_MAX_CHARS, type ItemComment } from '@shared/api/item-discussion';
import { useItemComments, usePostComment } from '../api/item-discussion-api';
import { ActionError, LoadError } from '../ui/error-messages';
import { formatTime } from '../ui/format';

/** A comment's text with its @mentions of users marked, the rest as written. */
function CommentBody({ comment }: { comment: ItemComment }) {
  const mentioned = new Set(comment.mentions.map((name) => name.toLowerCase()));
  const parts = comment.body.split(/(@[A-Za-z0-9_.-]*[A-Za-z0-9_])/);
  return (
    <p className="prewrap comment-body">
      {parts.map((part, i) =>
        part.startsWith('@') && mentioned.has(part.slice(1).toLowerCase()) ? (
          <strong key={i} className="mention">
            {part}
          </strong>
        ) : (
          part
        ),
      )}
    </p>
  );
}

/**
 * An item's discussion, on the Item page and on Review: reviewers and curators, live (new
 * comments arrive over the socket), `@username` tells that user. Ctrl+Enter posts; the key
 * stops here, so Review's own Ctrl+Enter (accept) does not fire while typing a comment.
 */
export function ItemThread({ itemId }: { itemId: number }) {
  const comments = useItemComments(itemId);
  const post = usePostComment(itemId);
  const [body, setBody] = useState('');
  const fieldId = useId();
  const send = () => {
    if (body.trim() === '' || post.isPending) return;
    post.mutate(body, { onSuccess: () => setBody('') });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Keys typed here are the comment's, never the page's shortcuts.
    event.stopPropagation();
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send();
    }
  };
  return (
    <section className="item-thread" aria-labelledby={`${fieldId}-heading`} data-testid="item-thread">
      <h2 id={`${fieldId}-heading`}>Discussion</h2>
      {comments.isPending && <p className="muted">Loading the discussion…</p>}
      {comments.isError && <LoadError what="the discussion" error={comments.error} />}
      {comments.data &&
        (comments.data.comments.length === 0 ? (
          <p className="muted small no-comments">No comments yet.</p>
        ) : (
          <ol className="comment-list">
            {comments.data.comments.map((comment) => (
              <li key={comment.id} data-testid="item-comment">
                <p className="small muted">
                  <strong>{comment.author.username}</strong> · <time dateTime={comment.created_at}>{formatTime(comment.created_at)}</time>
                </p>
                <CommentBody comment={comment} />
              </li>
            ))}
          </ol>
        ))}
      <form
        className="comment-form"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <label htmlFor={fieldId} className="small">
          Comment (@username tells them; Ctrl+Enter posts)
        </label>
        <textarea id={fieldId} value={body} maxLength={COMMENT_MAX_CHARS} rows={2} onChange={(e) => setBody(e.target.value)} onKeyDown={onKeyDown} />
        <button type="submit" disabled={post.isPending || body.trim() === ''}>
          {post.isPending ? 'Posting…' : 'Post'}
        </button>
        {post.isError && <ActionError error={post.error} />}
      </form>
    </section>
  );
}
