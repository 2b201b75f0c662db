/**
 * The services a preview renders with: the console's own, with a data provider that only
 * reads (a preview never writes: every write, and any call other than a GET, is refused
 * with a sentence and never sent) and access checks over the codes of the role viewed as
 * (already intersected with the configurer's own by GET /api/studio/view-as, so a preview
 * never shows more than the configurer may see).
 */
import { createStore } from 'jotai';
import { can, type Grants } from '../../runtime/access/can.ts';
import { NAMED_CALLS } from '../../runtime/protocol/calls.ts';
import type { AccessChecks, ConsoleServices, DataProvider } from '../../runtime/services/contract.ts';
import { userInfoAtom } from '../../runtime/session/atoms.ts';

export class PreviewWriteRefused extends Error {}

export function readOnlyProvider(data: DataProvider, refusal: string): DataProvider {
  const refuse = () => Promise.reject(new PreviewWriteRefused(refusal));
  return {
    key: (r) => data.key(r),
    query: (r) => {
      const key = data.key(r);
      // A read through a literal endpoint whose method writes (POST search endpoints included): not sent.
      if (key && !key.startsWith('GET ')) return refuse();
      return data.query(r);
    },
    mutate: () => refuse(),
    call: (name, options) => (NAMED_CALLS[name].method === 'GET' ? data.call(name, options) : refuse()),
    // Listening writes nothing.
    ...(data.subscribe ? { subscribe: data.subscribe.bind(data) } : {}),
  };
}

export interface PreviewGrants {
  menus: readonly string[];
  elements: readonly string[];
}

/** A jotai store whose session user holds `grants` only (the screens read element codes from it). */
export function previewStore(base: ConsoleServices, grants: PreviewGrants): ReturnType<typeof createStore> {
  const store = createStore();
  const user = base.store.get(userInfoAtom);
  store.set(userInfoAtom, user ? { ...user, menus: [...grants.menus], elements: [...grants.elements] } : null);
  return store;
}

export function previewServices(base: ConsoleServices, grants: PreviewGrants, refusal: string): ConsoleServices {
  const held: Grants = { menus: new Set(grants.menus), elements: new Set(grants.elements) };
  const access: AccessChecks = { can: ((target: never, action?: never) => can(held, target, action)) as AccessChecks['can'] };
  return { ...base, data: readOnlyProvider(base.data, refusal), access, store: previewStore(base, grants) };
}
