import { ApiError, PaginationError, UnexpectedResponseError } from "./errors.js";
import type { RequestOptions } from "./options.js";

/**
 * A paginated list: `for await (const item of list)` walks every page; `.page(n)` fetches one.
 * Like the official SDK, iteration asks for the next page until one is empty or the server answers
 * 404 (Label Studio's "Invalid page." past the last page); `count`/`next`/`total` are not trusted.
 */
export interface Paginated<T, P> extends AsyncIterable<T> {
  /** One page as the server sends it (a 404 past the end rejects with an ApiError). */
  page(page: number, options?: RequestOptions): Promise<P>;
  /** Every page, in order, with the same end rule as the item iterator. */
  pages(options?: RequestOptions): AsyncIterable<P>;
  /** Every item of every page. */
  toArray(options?: RequestOptions): Promise<T[]>;
}

export interface PageSource<T, P> {
  readonly firstPage: number;
  fetch(page: number, options?: RequestOptions): Promise<P>;
  items(page: P): readonly T[];
  /** The list's path, for error messages. */
  readonly path: string;
}

export function paginate<T extends { id?: unknown }, P>(source: PageSource<T, P>): Paginated<T, P> {
  async function* pages(options?: RequestOptions): AsyncGenerator<P, void, undefined> {
    const seen = new Set<unknown>();
    for (let page = source.firstPage; ; page++) {
      let body: P;
      try {
        body = await source.fetch(page, options);
      } catch (error) {
        if (isPastTheEnd(error, page === source.firstPage)) return;
        throw error;
      }
      const items = source.items(body);
      if (items.length === 0) return;
      // A server that ignores `page` would make this loop forever (docs/reference/python-sdk.md#pagination).
      if (items.every((item) => item.id !== undefined && seen.has(item.id))) throw new PaginationError(source.path, page);
      for (const item of items) seen.add(item.id);
      yield body;
    }
  }
  return Object.freeze({
    page: (page: number, options?: RequestOptions) => source.fetch(page, options),
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const body of pages()) yield* source.items(body);
    },
    async toArray(options?: RequestOptions): Promise<T[]> {
      const all: T[] = [];
      for await (const body of pages(options)) all.push(...source.items(body));
      return all;
    },
  });
}

function isPastTheEnd(error: unknown, first: boolean): boolean {
  if (!(error instanceof ApiError) || error instanceof UnexpectedResponseError || error.statusCode !== 404) return false;
  return !first || error.serverError?.detail === "Invalid page.";
}
