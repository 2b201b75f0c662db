/**
 * What every studio view shares: its words, the API, the effective documents, and the
 * configurer's own codes.
 */
import { useMemo } from 'react';
import type { WidgetProps } from '../../runtime/widgets/api.ts';
import { userInfoAtom } from '../../runtime/session/atoms.ts';
import { StudioApi } from './api.ts';
import { effectiveDocuments } from './effective.ts';
import { sayer } from './texts.ts';

export function useStudio(props: WidgetProps) {
  const { services, registry, language } = props;
  const say = useMemo(() => sayer(language), [language]);
  const api = useMemo(() => new StudioApi(services.data), [services.data]);
  const effective = useMemo(() => effectiveDocuments(registry), [registry]);
  const own = useMemo(() => {
    const user = services.store.get(userInfoAtom);
    return { menus: user?.menus ?? [], elements: user?.elements ?? [] };
  }, [services.store]);
  return { say, api, effective, own };
}

export type Studio = ReturnType<typeof useStudio>;
