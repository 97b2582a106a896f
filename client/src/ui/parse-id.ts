/** A positive integer id from a route or search parameter, else null. */
export function parseId(param: string | null | undefined): number | null {
  const id = Number(param);
  return param && Number.isInteger(id) && id > 0 ? id : null;
}
