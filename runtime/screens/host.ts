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
import { resolveElementCode, type Action, type Option } from '../schema/screen.ts';
import { evaluate } from '../schema/conditions.ts';

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
 * Whether an action is offered: its element code (resolved against the route's
 * authority) is held, and its condition holds over `data`.
 */
export function useActionFilter(): (action: Action, data: unknown) => boolean {
  const elements = useAtomValue(elementCodesAtom);
  const { authority } = useScreenHost();
  return (action, data) => {
    if (action.elementCode && !elements.has(resolveElementCode(action.elementCode, authority))) return false;
    try {
      return evaluate(action.when, data ?? {});
    } catch {
      return false;
    }
  };
}

/** Only the element-code half of the filter (batch actions test their condition on each selected row). */
export function useElementGate(): (action: Action) => boolean {
  const elements = useAtomValue(elementCodesAtom);
  const { authority } = useScreenHost();
  return (action) => !action.elementCode || elements.has(resolveElementCode(action.elementCode, authority));
}
