/**
 * What every renderer needs to know about where it is shown: the registry it reads
 * documents from, the route pattern and authority of the route the screen is shown at
 * (relative navigation targets and `:action` element codes resolve against them), and
 * the route's parameters. A screen opened in a drawer or embedded in a page inherits its
 * host's route and authority (docs/schema-language.md, "Actions").
 */
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { useAtomValue } from 'jotai';
import { currentLanguage } from '../i18n/i18n.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { Lang } from '../schema/texts.ts';
import { elementCodesAtom } from '../session/atoms.ts';
import type { Action, Option } from '../schema/screen.ts';
import { actionAllowed, elementAllowed, type GateContext } from './gating.ts';

export interface ScreenHost {
  registry: SchemaRegistry;
  /** The pattern of the route being shown, e.g. "/bigData-kms/cropsManager"; undefined when not routed. */
  routePattern?: string;
  /** The menu code guarding that route. */
  authority: string;
  /** Route parameters (or those an action or a page hands to a child). */
  params: Record<string, string | undefined>;
  /** Search parameters of the current URL. */
  query: Record<string, string | undefined>;
  /** Resolves a server dictionary code to options; none installed means values show as they are. */
  dictionary?: (code: string) => Promise<Option[]>;
}

export const ScreenHostContext = createContext<ScreenHost | null>(null);

export function useScreenHost(): ScreenHost {
  const host = useContext(ScreenHostContext);
  if (!host) throw new Error('a screen renderer outside <ScreenHostContext>');
  return host;
}

/** The console language as a schema language; re-renders the caller when it changes. */
export function useLang(): Lang {
  const { i18n } = useTranslation();
  return currentLanguage(i18n);
}

/**
 * Whether an action is offered (runtime/screens/gating.ts): its element code, given or
 * implied by the resource it writes, is held; the record's `_can` hints allow it; its
 * condition holds over `data`.
 */
export function useActionFilter(resource?: string): (action: Action, data: unknown) => boolean {
  const gc = useGateContext(resource);
  return (action, data) => actionAllowed(action, gc, data);
}

/** Only the element-code half of the filter (batch actions test the rest on each selected row). */
export function useElementGate(resource?: string): (action: Action) => boolean {
  const gc = useGateContext(resource);
  return (action) => elementAllowed(action, gc);
}

function useGateContext(resource: string | undefined): GateContext {
  const elements = useAtomValue(elementCodesAtom);
  const { authority, registry } = useScreenHost();
  return { elements, authority, registry, resource };
}
