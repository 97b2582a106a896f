import { z } from 'zod';

/** Stable error ids: clients branch on these, never on message text. */
export const ERROR_CODES = [
  'bad_request',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  /**
   * The workbench ended the caller's lease before they submitted (a change of the reviews per
   * item decided the item or took the lease's slot): the message says which; claim the next item.
   */
  'lease_ended',
  'rate_limited',
  'payload_too_large',
  /** A chart whose table is past the drawing limit (shared/chart-spec/drawing-limit.ts): not drawn, the message says its size. */
  'too_large_to_draw',
  /** A write whose body is not JSON (or not UTF-8, or compressed in a way the server does not read). */
  'unsupported_media_type',
  /** A write from a page of another origin (cross-site or same-site forgery). */
  'bad_origin',
  /**
   * More than one session cookie came with a request (a page on another port or path planted a
   * copy): none is believed, and the answer expires them all. Sign in again.
   */
  'session_cookie_conflict',
  /** A request naming a Host this server does not answer to (DNS rebinding): HQA_ALLOWED_HOSTS. */
  'bad_host',
  /** The database cannot take writes (full disk, read-only file): reads still work. */
  'storage_unavailable',
  'internal',
] as const;
export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** The one error body every API route answers with. */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    field: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
