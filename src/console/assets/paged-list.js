// @ts-check
/** @module A filtered list of records, newest first, loaded a page at a time: the next page appends, the status says how many are shown. */

/**
 * @template T
 * @param {{
 *   pageSize: number,
 *   query: () => Record<string, string>,
 *   fetchPage: (query: Record<string, string>) => Promise<T[]>,
 *   cursorOf: (item: T) => string,
 *   noun: string,
 *   render: (items: T[]) => void,
 *   status: HTMLElement,
 *   more: HTMLButtonElement,
 * }} options
 */
export function pagedList({ pageSize, query, fetchPage, cursorOf, noun, render, status, more }) {
  /** @type {T[]} */
  let shown = [];

  /** @param {boolean} append */
  async function load(append) {
    /** @type {Record<string, string>} */
    const params = { ...query(), limit: String(pageSize) };
    const last = shown[shown.length - 1];
    if (append && last) params.before = cursorOf(last);
    status.textContent = 'Loading…';
    try {
      const page = await fetchPage(params);
      shown = append ? [...shown, ...page] : page;
      render(shown);
      status.textContent = `${shown.length} ${noun}${shown.length === 1 ? '' : 's'}`;
      more.hidden = page.length < pageSize;
    } catch (error) {
      status.textContent = `Could not load: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  more.addEventListener('click', () => void load(true));
  return { load };
}
