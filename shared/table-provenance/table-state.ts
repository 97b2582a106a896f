import { z } from 'zod';

/**
 * An item's chart table as its verification rests on: `confirmed` (imported from a source that
 * publishes tables, or vouched for by a curator), `unconfirmed` (extracted by a vision model and
 * not checked yet: the verifier computed over a table nobody vouched for), `none` (image only).
 * Derived from charts.data_table and charts.table_confirmed, never stored on the item, so a
 * curator's confirmation clears every item's mark at once.
 */
export const TABLE_STATES = ['confirmed', 'unconfirmed', 'none'] as const;
export const TableStateSchema = z.enum(TABLE_STATES);
export type TableState = z.infer<typeof TableStateSchema>;

/** The mark an item on a chart whose table is not confirmed carries, wherever it is shown. */
export const UNCONFIRMED_TABLE_MARK = 'unverified: table not confirmed';

