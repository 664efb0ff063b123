/**
 * Where a staff list stands, for `ListResults` (list-page.tsx) to link its pages: how many rows
 * match, the page shown, and how many pages of `perPage` rows there are; at least one, so an empty
 * list still has its first page.
 */
export function pageOf(total: number, page: number, perPage: number) {
  return { total, page, pageCount: Math.max(1, Math.ceil(total / perPage)) };
}
