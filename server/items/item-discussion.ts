import type { User } from '../../shared/api/auth';
import { EDITABLE_ITEM_FIELDS, type EditableItemField, type EditItemRequest, type ItemComment, type ItemEdit, type ItemFieldChange } from '../../shared/api/item-discussion';
import type { ItemDetail } from '../../shared/api/items';
import type { ItemStatus } from '../../shared/domain/generation';
import { mentionedNames } from '../../shared/domain/mentions';
import { roleAtLeast, type Role } from '../../shared/domain/roles';
import { biasFlags } from '../../shared/generation/bias-guards';
import { classifyAnswer } from '../../shared/table/answers';
import { runProgram } from '../../shared/table/program';
import type { AppContext } from '../app-context';
import { DomainError, notFound } from '../domain-error';
import {
  editableItemFields,
  getItemComment,
  getItemEdit,
  insertCommentMention,
  insertItemComment,
  insertItemEdit,
  itemExists,
  itemStatus,
  setBiasFlags,
  listItemComments,
  listItemEdits,
  updateEditableFields,
  usersNamed,
} from './item-discussion-queries';
import type { Db } from '../../db/database';
import { immediateTransaction } from '../../db/transactions';
import { questionRelation } from '../language/question-relation';
import { getItemDetail, getItemWithChart, itemQuestionTexts, setQuestionRelations } from './item-queries';
import { subjectTables } from './item-service';
import { groupSubject } from './item-subject';
import { reverifyItem } from './reverify-items';
import { blindItemIds, blindToSomeReviewer } from './blind-view-queries';
import { blindViewer } from './blind-viewer';

/** An item's comment thread and its curators' direct edits, each write with its events. */

/** The bias guards read the answer: an edited one is guarded again, as a new item's is (item-service createItem). */
function guardAgainAnswerBias(db: Db, itemId: number): void {
  const stored = getItemWithChart(db, itemId);
  if (!stored) return;
  const { item, chart, groupId } = stored;
  // An item over a group: its program reads every member's table.
  const tables = groupId === null ? chart.data_table : subjectTables(groupSubject(db, groupId));
  const unedited = runProgram(tables, item.program);
  const flags = biasFlags({
    affectsAnswer: item.affects_answer,
    answer: item.answer,
    factualLabel: item.factual_label,
    recomputedAnswer: item.verifier.recomputed_answer,
    uneditedAnswer: unedited.ok ? unedited.answer : null,
  });
  setBiasFlags(db, itemId, flags);
}

function reclassifyQuestion(db: Db, itemId: number): void {
  const texts = itemQuestionTexts(db, itemId);
  if (texts) setQuestionRelations(db, [{ id: itemId, relation: questionRelation(texts.factual_query, texts.question, texts.assumption) }]);
}

/**
 * Review is blind: until an item is decided, a reviewer's comment is for curators (and its
 * author) only, or it could carry one reviewer's verdict to the next. Curators' comments are
 * for everyone; once the item is accepted or rejected, the whole thread is.
 */
function blindWhileOpen(status: ItemStatus, author: { role: Role }): boolean {
  return !DECIDED.has(status) && !roleAtLeast(author.role, 'curator');
}
const DECIDED: ReadonlySet<ItemStatus> = new Set(['accepted', 'rejected']);

/**
 * The item's thread as the viewer may read it. To a reviewer, an item whose outcome rests on
 * their verdict with others', or a gold item, stays open (blind-view-queries.ts): other
 * reviewers' comments on it stay hidden even once it is decided.
 */
export function itemComments(ctx: AppContext, itemId: number, viewer: User): ItemComment[] {
  const status = itemStatus(ctx.db, itemId);
  if (status === null) throw notFound(`item ${itemId}`);
  const comments = listItemComments(ctx.db, itemId);
  const blind = blindViewer(ctx.db, viewer);
  if (blind === null) return comments;
  const shown: ItemStatus = blindItemIds(ctx.db, blind, [itemId]).has(itemId) ? 'in_review' : status;
  return comments.filter((comment) => comment.author.id === viewer.id || !blindWhileOpen(shown, comment.author));
}

/**
 * Stores a comment and the existing users it mentions (not its author); its `comment.posted`
 * tells everyone (`comment.created`: pages showing the item add it) and each mentioned user's own
 * sockets (`comment.mentioned`). A name that is no user's stays text.
 */
export function postComment(ctx: AppContext, itemId: number, author: User, body: string): ItemComment {
  return immediateTransaction(ctx.db, () => {
    const status = itemStatus(ctx.db, itemId);
    if (status === null) throw notFound(`item ${itemId}`);
    // Blind to some reviewer (gold, or decided with several reviewers' verdicts): pushed live to curators only too.
    const staffOnly = blindWhileOpen(status, author) || (!roleAtLeast(author.role, 'curator') && blindToSomeReviewer(ctx.db, itemId));
    const id = insertItemComment(ctx.db, itemId, author.id, body);
    // A reviewer named in a comment other reviewers may not read yet is not told of it either.
    const mentioned = usersNamed(ctx.db, mentionedNames(body)).filter((user) => !staffOnly || roleAtLeast(user.role, 'curator'));
    for (const user of mentioned) insertCommentMention(ctx.db, id, user.id);
    const stored = getItemComment(ctx.db, id);
    if (!stored) throw new Error(`item_comments ${id}: not found after insert`);
    ctx.events.emit('comment.posted', {
      comment: stored,
      staff_only: staffOnly,
      author_id: author.id,
      mentioned: mentioned.map((user) => user.username),
      notify: mentioned.filter((user) => user.id !== author.id).map((user) => user.id),
    });
    return stored;
  });
}

/**
 * Curators' edits of the item. To a reviewer the item is blind to (decided with their verdict
 * and others', or gold: blind-view-queries.ts), only the edits made while it was open: a later
 * one names the status it was decided with and may quote the answer it was given.
 */
export function itemEdits(ctx: AppContext, itemId: number, viewer: User): ItemEdit[] {
  if (!itemExists(ctx.db, itemId)) throw notFound(`item ${itemId}`);
  const edits = listItemEdits(ctx.db, itemId);
  const blind = blindViewer(ctx.db, viewer);
  if (blind === null || !blindItemIds(ctx.db, blind, [itemId]).has(itemId)) return edits;
  return edits.filter((edit) => !DECIDED.has(edit.status_at_edit) && edit.status_at_edit !== 'needs_adjudication');
}

/**
 * A curator's edit of the assumption, question or answer, with its reason: the fields that
 * change are kept before and after in item_edits, and the verifier runs again on the item as
 * edited (an accepted item keeps its status; its new verdict is stored and shown). An edit that
 * changes nothing is refused (400 naming `body.answer`), so the history holds only changes.
 */
export function editItem(ctx: AppContext, itemId: number, editor: User, request: EditItemRequest): { item: ItemDetail; edit: ItemEdit } {
  return immediateTransaction(ctx.db, () => {
    const current = editableItemFields(ctx.db, itemId);
    if (!current) throw notFound(`item ${itemId}`);
    const changes: ItemFieldChange[] = EDITABLE_ITEM_FIELDS.flatMap((field) => {
      const after = request[field];
      return after === undefined || after === current[field] ? [] : [{ field, before: current[field], after }];
    });
    if (changes.length === 0) {
      throw new DomainError('bad_request', 'body.answer: the edit changes none of assumption, question, answer', 'body.answer');
    }
    const next = { assumption: request.assumption ?? current.assumption, question: request.question ?? current.question, answer: request.answer ?? current.answer };
    const edited = (field: EditableItemField) => changes.some((change) => change.field === field);
    updateEditableFields(ctx.db, itemId, {
      ...next,
      answer_type: classifyAnswer(next.answer),
      question_edited: edited('question'),
      answer_edited: edited('answer'),
    });
    const editId = insertItemEdit(ctx.db, itemId, editor.id, request.reason, changes, current.status);
    reverifyItem(ctx.db, itemId);
    // The question's relation to the factual one is read from the question and assumption.
    if (edited('question') || edited('assumption')) reclassifyQuestion(ctx.db, itemId);
    if (edited('answer')) guardAgainAnswerBias(ctx.db, itemId);
    const item = getItemDetail(ctx.db, itemId);
    const edit = getItemEdit(ctx.db, editId);
    if (!item || !edit) throw new Error(`item ${itemId}: not found after its edit ${editId}`);
    ctx.events.emit('item.edited', { item_id: itemId, editor_id: editor.id, edit_id: editId, fields: changes.map((change) => change.field), reason: request.reason });
    return { item, edit };
  });
}
