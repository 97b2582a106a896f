import { z } from 'zod';
import type { Db } from '../../db/database';
import { parseJsonColumn } from '../../db/json-column';
import { statement } from '../../db/statements';
import { ItemFieldChangeSchema, type ItemComment, type ItemEdit, type ItemFieldChange } from '../../shared/api/item-discussion';
import { ItemStatusSchema, type ItemStatus } from '../../shared/domain/generation';
import { RoleSchema, type Role } from '../../shared/domain/roles';
import type { BiasFlag } from '../../shared/generation/bias-guards';

/** The SQL of an item's comment thread, its mentions and its curators' edits (migration 018). */

const ChangesSchema = z.array(ItemFieldChangeSchema);

interface CommentRow {
  id: number;
  item_id: number;
  author_id: number;
  author: string;
  author_role: string;
  body: string;
  created_at: string;
  /** JSON list of the mentioned usernames, in the order they were stored. */
  mentions: string;
}

const COMMENT_SELECT = `SELECT c.id, c.item_id, c.author_id, u.username AS author, u.role AS author_role, c.body, c.created_at,
    (SELECT json_group_array(mu.username) FROM comment_mentions m JOIN users mu ON mu.id = m.user_id WHERE m.comment_id = c.id) AS mentions
  FROM item_comments c JOIN users u ON u.id = c.author_id`;

function toComment(row: CommentRow): ItemComment {
  return {
    id: row.id,
    item_id: row.item_id,
    author: { id: row.author_id, username: row.author, role: RoleSchema.parse(row.author_role) },
    body: row.body,
    mentions: parseJsonColumn(z.array(z.string()), row.mentions, { table: 'comment_mentions', column: 'username', id: row.id }),
    created_at: row.created_at,
  };
}

export function listItemComments(db: Db, itemId: number): ItemComment[] {
  const rows = statement(db, `${COMMENT_SELECT} WHERE c.item_id = ? ORDER BY c.id`).all(itemId) as CommentRow[];
  return rows.map(toComment);
}

export function getItemComment(db: Db, commentId: number): ItemComment | null {
  const row = statement(db, `${COMMENT_SELECT} WHERE c.id = ?`).get(commentId) as CommentRow | undefined;
  return row ? toComment(row) : null;
}

/** The enabled users with these names (case as the users table compares: without case). */
export function usersNamed(db: Db, names: readonly string[]): { id: number; username: string; role: Role }[] {
  if (names.length === 0) return [];
  const rows = statement(db, 'SELECT id, username, role FROM users WHERE disabled_at IS NULL AND username IN (SELECT value FROM json_each(?)) ORDER BY id').all(
    JSON.stringify(names),
  ) as { id: number; username: string; role: string }[];
  return rows.map((row) => ({ ...row, role: RoleSchema.parse(row.role) }));
}

/** The item's review status, or null when there is no such item. */
export function itemStatus(db: Db, itemId: number): ItemStatus | null {
  const row = statement(db, 'SELECT status FROM hqa_items WHERE id = ?').get(itemId) as { status: string } | undefined;
  return row ? ItemStatusSchema.parse(row.status) : null;
}

export function insertItemComment(db: Db, itemId: number, authorId: number, body: string): number {
  return Number(statement(db, 'INSERT INTO item_comments (item_id, author_id, body) VALUES (?, ?, ?)').run(itemId, authorId, body).lastInsertRowid);
}

export function insertCommentMention(db: Db, commentId: number, userId: number): void {
  statement(db, 'INSERT OR IGNORE INTO comment_mentions (comment_id, user_id) VALUES (?, ?)').run(commentId, userId);
}

/** The editable fields as the item holds them now: question and answer as the export carries them (a reviewer's correction first). */
export function editableItemFields(db: Db, itemId: number): { status: ItemStatus; assumption: string; question: string; answer: string } | null {
  const row = statement(db, 'SELECT status, assumption, COALESCE(final_question, question) AS question, COALESCE(final_answer, answer) AS answer FROM hqa_items WHERE id = ?').get(itemId) as
    | { status: string; assumption: string; question: string; answer: string }
    | undefined;
  return row ? { ...row, status: ItemStatusSchema.parse(row.status) } : null;
}

/**
 * Writes a curator's values. An edited question or answer replaces the stored one and clears a
 * reviewer's correction of it (kept in the edit's `before`), so the export carries what the
 * curator wrote; an unedited one is left as it was, correction and all.
 */
export function updateEditableFields(
  db: Db,
  itemId: number,
  fields: { assumption: string; question: string; answer: string; answer_type: string; question_edited: boolean; answer_edited: boolean },
): void {
  statement(db,
    `UPDATE hqa_items SET assumption = @assumption,
       question = CASE WHEN @question_edited THEN @question ELSE question END,
       final_question = CASE WHEN @question_edited THEN NULL ELSE final_question END,
       answer = CASE WHEN @answer_edited THEN @answer ELSE answer END,
       answer_type = CASE WHEN @answer_edited THEN @answer_type ELSE answer_type END,
       final_answer = CASE WHEN @answer_edited THEN NULL ELSE final_answer END,
       updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = @id`,
  ).run({ ...fields, question_edited: fields.question_edited ? 1 : 0, answer_edited: fields.answer_edited ? 1 : 0, id: itemId });
}

export function setBiasFlags(db: Db, itemId: number, flags: readonly BiasFlag[]): void {
  statement(db, 'UPDATE hqa_items SET bias_flags = ? WHERE id = ?').run(JSON.stringify(flags), itemId);
}

export function insertItemEdit(db: Db, itemId: number, editorId: number, reason: string, changes: readonly ItemFieldChange[], status: ItemStatus): number {
  return Number(
    statement(db, 'INSERT INTO item_edits (item_id, editor_id, reason, changes, status_at_edit) VALUES (?, ?, ?, ?, ?)').run(
      itemId,
      editorId,
      reason,
      JSON.stringify(changes),
      status,
    ).lastInsertRowid,
  );
}

interface EditRow {
  id: number;
  item_id: number;
  editor_id: number;
  editor: string;
  reason: string;
  changes: string;
  status_at_edit: string;
  created_at: string;
}

const EDIT_SELECT = `SELECT e.id, e.item_id, e.editor_id, u.username AS editor, e.reason, e.changes, e.status_at_edit, e.created_at
  FROM item_edits e JOIN users u ON u.id = e.editor_id`;

function toEdit(row: EditRow): ItemEdit {
  return {
    id: row.id,
    item_id: row.item_id,
    editor: { id: row.editor_id, username: row.editor },
    reason: row.reason,
    changes: parseJsonColumn(ChangesSchema, row.changes, { table: 'item_edits', column: 'changes', id: row.id }),
    status_at_edit: ItemStatusSchema.parse(row.status_at_edit),
    created_at: row.created_at,
  };
}

export function listItemEdits(db: Db, itemId: number): ItemEdit[] {
  return (statement(db, `${EDIT_SELECT} WHERE e.item_id = ? ORDER BY e.id`).all(itemId) as EditRow[]).map(toEdit);
}

export function getItemEdit(db: Db, editId: number): ItemEdit | null {
  const row = statement(db, `${EDIT_SELECT} WHERE e.id = ?`).get(editId) as EditRow | undefined;
  return row ? toEdit(row) : null;
}

export function itemExists(db: Db, itemId: number): boolean {
  return statement(db, 'SELECT 1 FROM hqa_items WHERE id = ?').get(itemId) !== undefined;
}
