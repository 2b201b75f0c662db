/** /studio/coverage — the coverage report of GET /api/studio/coverage (server/studio/coverage.ts). */
import { Alert, Card, Flex, List, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { LocalizedText } from '../../runtime/protocol/texts.ts';
import type { WidgetProps } from '../../runtime/widgets/api.ts';
import { refusalOf } from './api.ts';
import { editRoute } from './effective.ts';
import { useStudio } from './use-studio.ts';

interface Report {
  unusedAuthorities: { code: string; title: LocalizedText | null; section: string }[];
  unreachableScreens: { id: string; title?: LocalizedText | null; file: string; routes: string[]; authorities: string[]; onlyPlatformRoles: boolean }[];
  unusedElements: { code: string; title: LocalizedText | null; menu: string }[];
  unguardedEndpoints: {
    screen: string;
    screenTitle?: LocalizedText | null;
    file: string;
    pointer: string;
    /** The block showing the endpoint, named in each language («列「状态」（/columns/2）»). */
    place?: LocalizedText;
    method: string;
    path: string;
    reason: 'notServed' | 'public';
  }[];
  counts: Record<'screens' | 'authorities' | 'elements' | 'roles' | 'endpoints', number>;
}

/** A report with every list and count present (a partial reply shows as empty sections). */
function complete(r: Partial<Report> | null): Report {
  const list = <T,>(x: T[] | undefined) => (Array.isArray(x) ? x : []);
  const c = r?.counts;
  return {
    unusedAuthorities: list(r?.unusedAuthorities),
    unreachableScreens: list(r?.unreachableScreens),
    unusedElements: list(r?.unusedElements),
    unguardedEndpoints: list(r?.unguardedEndpoints),
    counts: { screens: c?.screens ?? 0, authorities: c?.authorities ?? 0, elements: c?.elements ?? 0, roles: c?.roles ?? 0, endpoints: c?.endpoints ?? 0 },
  };
}

export function CoverageScreen(props: WidgetProps) {
  const { language, services } = props;
  const { say, api } = useStudio(props);
  const [report, setReport] = useState<Report | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api
      .coverage<Partial<Report>>()
      .then((r) => live && setReport(complete(r)))
      .catch((e: unknown) => live && setFailed(refusalOf(e, '').message));
    return () => {
      live = false;
    };
  }, [api]);

  /** A real link (focusable, opens in a new tab too), followed inside the console. */
  const link = (to: string, text: React.ReactNode) => (
    <Typography.Link
      href={to}
      onClick={(e) => {
        e.preventDefault();
        services.navigate(to);
      }}
    >
      {text}
    </Typography.Link>
  );
  if (failed) return <Alert type="error" showIcon title={say('loadFailed')} description={failed} />;
  if (!report) return <p aria-busy="true">{say('loading')}</p>;
  const section = <T,>(title: string, items: T[], render: (x: T) => React.ReactNode, testId: string) => (
    <Card size="small" title={`${title} (${items.length})`} data-testid={testId}>
      {items.length ? <List size="small" dataSource={items} renderItem={(x) => <List.Item>{render(x)}</List.Item>} /> : <Typography.Text type="secondary">{say('none')}</Typography.Text>}
    </Card>
  );
  return (
    <Flex vertical gap={12} data-testid="studio-coverage">
      <Typography.Text type="secondary">{say('coverageCounts', report.counts)}</Typography.Text>
      {section(say('unusedAuthorities'), report.unusedAuthorities, (a) => (
        <span>
          {link('/studio/menus', <Typography.Text code>{a.code}</Typography.Text>)} {a.title?.[language]} <Tag>{a.section}</Tag>
        </span>
      ), 'coverage-authorities')}
      {section(say('unreachableScreens'), report.unreachableScreens, (s) => (
        <span>
          {link(editRoute({ type: 'screen', id: s.id }), s.title?.[language] ?? s.id)} <Typography.Text type="secondary">{s.id}</Typography.Text> {s.routes.join(' · ')} <Typography.Text code>{s.authorities.join(', ')}</Typography.Text>
          {s.onlyPlatformRoles ? <Tag color="blue">{say('onlyPlatform')}</Tag> : null}
        </span>
      ), 'coverage-screens')}
      {section(say('unusedElements'), report.unusedElements, (e) => (
        <span>
          {link('/studio/menus', <Typography.Text code>{e.code}</Typography.Text>)} {e.title?.[language]}
        </span>
      ), 'coverage-elements')}
      {section(say('unguardedEndpoints'), report.unguardedEndpoints, (e) => (
        <span>
          <Typography.Text code>
            {e.method} {e.path}
          </Typography.Text>{' '}
          {link(editRoute({ type: 'screen', id: e.screen }), e.screenTitle?.[language] ?? e.screen)} {e.place ? e.place[language] : <Typography.Text code>{e.pointer}</Typography.Text>}{' '}
          <Tag color="error">{e.reason === 'public' ? say('publicRoute') : say('notServed')}</Tag>
        </span>
      ), 'coverage-endpoints')}
    </Flex>
  );
}
