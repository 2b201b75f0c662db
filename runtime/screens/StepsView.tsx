/**
 * A page with `layout: "steps"` (docs/schema-language.md, "page"): its children one at a
 * time under antd Steps, with previous / next. The step last shown is kept per screen and
 * user in the browser's storage (and in the URL's `step` query parameter), so a set-up
 * wizard left half-way opens again where it was left. Each step is a whole screen that
 * saves its own records, so leaving loses nothing already saved. Its own chunk: only
 * wizards load antd's Steps.
 */
import { Button, Flex, Steps } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { userInfoAtom } from '../session/atoms.ts';

export interface StepItem {
  key: string;
  title: string;
  body: ReactNode;
}

const storageKey = (screenId: string, user: string) => `steps:${user}:${screenId}`;

function initialStep(screenId: string, user: string, count: number, fromUrl: string | null): number {
  const wanted = fromUrl ?? (() => {
    try {
      return window.localStorage.getItem(storageKey(screenId, user));
    } catch {
      return null;
    }
  })();
  const n = Number(wanted);
  return Number.isInteger(n) && n >= 0 && n < count ? n : 0;
}

export function StepsView({ screenId, items }: { screenId: string; items: StepItem[] }) {
  const user = String(useAtomValue(userInfoAtom)?.id ?? '');
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const [current, setCurrent] = useState(() => initialStep(screenId, user, items.length, search.get('step')));
  useEffect(() => {
    try {
      window.localStorage.setItem(storageKey(screenId, user), String(current));
    } catch {
      // Private mode: the wizard still works, it only does not resume.
    }
    if (search.get('step') !== String(current)) {
      const next = new URLSearchParams(search);
      next.set('step', String(current));
      setSearch(next, { replace: true });
    }
  }, [current, screenId, user, search, setSearch]);
  const item = items[current];
  return (
    <Flex vertical gap={16}>
      <Steps current={current} onChange={setCurrent} items={items.map((i) => ({ title: i.title }))} />
      <div data-step={current}>{item?.body}</div>
      <Flex gap={8} justify="flex-end">
        <Button disabled={current === 0} onClick={() => setCurrent((c) => Math.max(0, c - 1))}>
          {t('screens.page.previous')}
        </Button>
        {current < items.length - 1 ? (
          <Button type="primary" onClick={() => setCurrent((c) => Math.min(items.length - 1, c + 1))}>
            {t('screens.page.next')}
          </Button>
        ) : (
          <Button type="primary" onClick={() => setCurrent(0)}>
            {t('screens.page.done')}
          </Button>
        )}
      </Flex>
    </Flex>
  );
}
