/**
 * Format 0 → 1. Format 0 was the flat prototype: `type` (list | form | detail | tabs)
 * instead of `kind`, `path`/`auth`/`cache` instead of `route`/`authority`/`keepAlive`,
 * field names instead of column and field objects, and every text a plain string in the
 * document's `lang` (default zh). Plain strings become I18nText copies marked
 * `untranslated`, so the copy shows up in schemas:check instead of passing for a translation.
 */
import { fromSingleLanguage, type I18nText, type Lang } from '../texts.ts';
import type { Action, Column, DetailField, FormField, ParamMap, Screen } from '../screen.ts';
import { SCREEN_SCHEMA_ID, routeParams } from '../screen.ts';

export interface Format0Button {
  text: string;
  to: string;
  auth?: string;
  showIf?: Record<string, string | number | boolean | null>;
}

export interface Format0Screen {
  $schema?: string;
  formatVersion?: 0;
  revision?: number;
  lang?: Lang;
  id: string;
  type: 'list' | 'form' | 'detail' | 'tabs';
  path?: string;
  auth: string;
  title: string;
  icon?: string;
  cache?: boolean;
  hidden?: boolean;
  resource?: string;
  fields?: string[];
  labels?: Record<string, string>;
  search?: string[];
  pageSize?: number;
  buttons?: Format0Button[];
  toolbar?: Format0Button[];
  columns?: number;
  modeParam?: string;
  idParam?: string;
  tabs?: { title: string; screen: string }[];
}

const KIND = { list: 'table', form: 'form', detail: 'detail', tabs: 'page' } as const;

export function migrateV0ToV1(doc: Format0Screen): Screen {
  const lang = doc.lang ?? 'zh';
  const text = (s: string): I18nText => fromSingleLanguage(s, lang);
  const titled = <T extends { field: string; title?: I18nText }>(field: string, rest: Omit<T, 'field' | 'title'>): T => {
    const label = doc.labels?.[field];
    return { field, ...(label ? { title: text(label) } : {}), ...rest } as T;
  };
  // A format 0 button filled every :name of its route from the value of the same name.
  const action = (b: Format0Button, root: 'row' | 'record' | 'route'): Action => {
    const params: ParamMap = {};
    for (const p of routeParams(b.to)) params[p] = `${root}.${p}`;
    const [field, value] = Object.entries(b.showIf ?? {})[0] ?? [];
    return {
      kind: 'navigate',
      label: text(b.text),
      to: b.to,
      ...(Object.keys(params).length ? { params } : {}),
      ...(b.auth ? { elementCode: b.auth } : {}),
      ...(field !== undefined ? { when: { field, op: 'eq', value: value ?? null } } : {}),
    };
  };

  const base = {
    $schema: SCREEN_SCHEMA_ID,
    formatVersion: 1 as const,
    revision: doc.revision ?? 1,
    id: doc.id,
    title: text(doc.title),
    ...(doc.path ? { route: doc.path } : {}),
    authority: doc.auth,
    ...(doc.icon ? { icon: doc.icon } : {}),
    ...(doc.cache !== undefined ? { keepAlive: doc.cache } : {}),
    ...(doc.hidden !== undefined ? { hidden: doc.hidden } : {}),
    ...(doc.resource ? { resource: doc.resource } : {}),
  };
  const fields = doc.fields ?? [];
  const columns = doc.columns ?? 1;
  // Form and detail buttons act on the record shown; toolbar buttons on the route.
  const recordActions = [...(doc.toolbar ?? []).map((b) => action(b, 'route')), ...(doc.buttons ?? []).map((b) => action(b, 'record'))];

  switch (KIND[doc.type]) {
    case 'table':
      return {
        ...base,
        kind: 'table',
        columns: fields.map((f) => titled<Column>(f, {})),
        ...(doc.search?.length ? { filters: doc.search.map((field) => ({ field })) } : {}),
        ...(doc.toolbar?.length ? { toolbar: doc.toolbar.map((b) => action(b, 'route')) } : {}),
        ...(doc.buttons?.length ? { rowActions: doc.buttons.map((b) => action(b, 'row')) } : {}),
        ...(doc.pageSize ? { pageSize: doc.pageSize } : {}),
      };
    case 'form':
      return {
        ...base,
        kind: 'form',
        ...(doc.modeParam ? { modeParam: doc.modeParam } : {}),
        ...(doc.idParam ? { idParam: doc.idParam } : {}),
        sections: [{ columns, fields: fields.map((f) => titled<FormField>(f, {})) }],
        ...(recordActions.length ? { actions: recordActions } : {}),
      } as Screen;
    case 'detail':
      return {
        ...base,
        kind: 'detail',
        ...(doc.idParam ? { idParam: doc.idParam } : {}),
        sections: [{ columns, fields: fields.map((f) => titled<DetailField>(f, {})) }],
        ...(recordActions.length ? { actions: recordActions } : {}),
      } as Screen;
    case 'page':
      return {
        ...base,
        kind: 'page',
        layout: 'tabs',
        children: (doc.tabs ?? []).map((t) => ({ screen: t.screen, title: text(t.title) })),
      };
  }
}
