import { createContext, useContext, type ReactNode } from 'react';
import { buildQueryString, type Query } from './api-client.ts';

/**
 * The API answers a server-rendered page was drawn from, handed to the app in the page so its
 * first render matches the HTML (no loading state, no second look-up): keyed by the request the
 * screen would otherwise make (`apiPath`), each with its status, so a 404 renders as not found.
 */
export interface PageAnswer {
  status: number;
  data?: unknown;
}
export type PageData = Record<string, PageAnswer>;

/** The id of the `<script type="application/json">` that carries the page's data. */
export const PAGE_DATA_ELEMENT_ID = 'page-data';

/** The request a screen makes for `path` with `query`, written the same way wherever it is keyed. */
export const apiPath = (path: string, query?: Query): string => `${path}${buildQueryString(query)}`;

const PageDataContext = createContext<PageData>({});

export function PageDataProvider({ data, children }: { data: PageData; children: ReactNode }) {
  return <PageDataContext.Provider value={data}>{children}</PageDataContext.Provider>;
}

/**
 * The page's answer for `path`, when the page came with one. A screen reads it for its first
 * render only: what it loads afterwards (another query, a retry) goes to the server.
 */
export function usePageAnswer(path: string | null): PageAnswer | undefined {
  const data = useContext(PageDataContext);
  return path === null ? undefined : data[path];
}

/** The successful answer's data for `path`, or undefined. */
export function usePageData<T>(path: string | null): T | undefined {
  const answer = usePageAnswer(path);
  return answer && answer.status >= 200 && answer.status < 300 ? (answer.data as T) : undefined;
}

/** The data the server put in the page; empty for a page the server did not render. */
export function readPageData(doc: Document): PageData {
  const text = doc.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as PageData) : {};
  } catch {
    return {};
  }
}
