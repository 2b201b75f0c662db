/**
 * /studio/documents — every document by kind, menu section and route, with its status
 * (bundled, published revision N, the caller's draft); filter and search. From the store
 * (GET /api/studio/documents); without it, from the console's own documents.
 */
import { Alert, Button, Flex, Input, Select, Space, Table, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { screenRoutes } from '../../runtime/schema/screen.ts';
import type { SchemaRegistry } from '../../runtime/schema/registry.ts';
import type { WidgetProps } from '../../runtime/widgets/api.ts';
import { isMissingApi, type DocumentSummary } from './api.ts';
import { editRoute } from './effective.ts';
import { useStudio } from './use-studio.ts';
import { NewScreenDialog } from './NewScreenDialog.tsx';

/** The documents as the console holds them, when the store does not answer. */
export function localDocuments(registry: SchemaRegistry): DocumentSummary[] {
  const sectionOf = menuSections(registry);
  const out: DocumentSummary[] = [];
  if (registry.menus) out.push({ file: registry.menus.file, type: 'menus', id: 'menus', title: null, routes: [], section: null, status: 'bundled', revision: registry.menus.doc.revision ?? 1, draft: false });
  for (const r of registry.resources.values())
    out.push({ file: r.file, type: 'resource', id: r.doc.name, title: (r.doc as { title?: DocumentSummary['title'] }).title ?? null, routes: [], section: null, status: 'bundled', revision: 1, draft: false });
  for (const s of registry.screens.values()) {
    const routes = screenRoutes(s.screen);
    out.push({
      file: s.file,
      type: 'screen',
      id: s.screen.id,
      title: s.screen.title,
      routes: routes.map((r) => r.route),
      section: sectionOf.get(s.screen.authority) ?? null,
      status: 'bundled',
      revision: s.screen.revision ?? 1,
      draft: false,
    });
  }
  return out;
}

/** Menu code → the code of its section. */
export function menuSections(registry: SchemaRegistry): Map<string, string> {
  const map = new Map<string, string>();
  for (const s of registry.menus?.doc.menus ?? []) {
    map.set(s.code, s.code);
    for (const c of s.children) map.set(c.code, s.code);
  }
  return map;
}

export function DocumentsScreen(props: WidgetProps) {
  const { registry, services, language } = props;
  const { say, api } = useStudio(props);
  const [docs, setDocs] = useState<DocumentSummary[] | null>(null);
  const [offline, setOffline] = useState(false);
  const [kind, setKind] = useState<string>('');
  const [section, setSection] = useState<string>('');
  const [status, setStatus] = useState<string>('');
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    let live = true;
    api
      .documents()
      // A reply that is not a list (a server without the store) is taken as no store.
      .then((d) => live && setDocs(Array.isArray(d) ? d : localDocuments(registry)))
      .catch((e: unknown) => {
        if (!live) return;
        setOffline(isMissingApi(e));
        setDocs(localDocuments(registry));
      });
    return () => {
      live = false;
    };
  }, [api, registry]);

  const sectionTitles = useMemo(() => new Map((registry.menus?.doc.menus ?? []).map((s) => [s.code, s.title[language]])), [registry, language]);
  const rows = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (docs ?? []).filter((d) => {
      if (kind && d.type !== kind) return false;
      if (section && d.section !== section) return false;
      if (status === 'draft' ? !d.draft : status && d.status !== status) return false;
      if (!q) return true;
      return [d.id, d.file, ...d.routes, d.title?.zh, d.title?.en, d.title?.es].some((x) => x?.toLowerCase().includes(q));
    });
  }, [docs, kind, section, status, search]);

  const kindLabel = (t: string) => (t === 'screen' ? say('screen') : t === 'resource' ? say('resource') : say('menus'));
  return (
    <Flex vertical gap={12} data-testid="studio-documents">
      {offline ? <Alert type="info" showIcon title={say('apiOffline')} /> : null}
      <Space wrap>
        {offline ? null : (
          <Button type="primary" onClick={() => setCreating(true)} data-testid="studio-new-screen">
            {say('newScreen')}
          </Button>
        )}
        <Input.Search aria-label={say('search')} placeholder={say('search')} allowClear style={{ width: 320 }} value={search} onChange={(e) => setSearch(e.target.value)} />
        <Select aria-label={say('kind')} style={{ width: 140 }} value={kind} onChange={setKind} options={[{ value: '', label: `${say('kind')}: ${say('all')}` }, ...['screen', 'resource', 'menus'].map((t) => ({ value: t, label: kindLabel(t) }))]} />
        <Select
          aria-label={say('section')}
          style={{ width: 220 }}
          value={section}
          onChange={setSection}
          showSearch={{ optionFilterProp: 'label' }}
          options={[{ value: '', label: `${say('section')}: ${say('all')}` }, ...[...sectionTitles].map(([code, title]) => ({ value: code, label: title ?? code }))]}
        />
        <Select
          aria-label={say('status')}
          style={{ width: 180 }}
          value={status}
          onChange={setStatus}
          options={[
            { value: '', label: `${say('status')}: ${say('all')}` },
            { value: 'bundled', label: say('bundled') },
            { value: 'published', label: say('published', { n: 'N' }) },
            { value: 'new', label: say('newDoc') },
            { value: 'draft', label: say('draft') },
          ]}
        />
      </Space>
      <NewScreenDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(id) => {
          setCreating(false);
          services.navigate(editRoute({ type: 'screen', id }));
        }}
        registry={registry}
        api={api}
        say={say}
        language={language}
      />
      <Table<DocumentSummary>
        rowKey="file"
        size="small"
        loading={docs === null}
        dataSource={rows}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        columns={[
          { key: 'kind', title: say('kind'), width: 90, render: (_, d) => kindLabel(d.type) },
          { key: 'title', title: say('title'), render: (_, d) => d.title?.[language] ?? d.id },
          { key: 'id', title: 'id', dataIndex: 'id' },
          { key: 'section', title: say('section'), render: (_, d) => (d.section ? (sectionTitles.get(d.section) ?? d.section) : '') },
          { key: 'routes', title: say('routes'), render: (_, d) => d.routes.join(' · ') },
          {
            key: 'status',
            title: say('status'),
            render: (_, d) => (
              <Space size={4}>
                <Tag color={d.status === 'published' ? 'blue' : d.status === 'new' ? 'cyan' : undefined}>
                  {d.status === 'published' ? say('published', { n: d.revision }) : d.status === 'new' ? say('newDoc') : say('bundled')}
                </Tag>
                {d.draft ? <Tag color="orange">{say('draft')}</Tag> : null}
              </Space>
            ),
          },
          {
            key: 'open',
            title: '',
            render: (_, d) => (
              <Space size={4}>
                <Button size="small" type="link" onClick={() => services.navigate(editRoute(d))}>
                  {say('edit')}
                </Button>
                <Button size="small" type="link" onClick={() => services.navigate(`/studio/translations?file=${encodeURIComponent(d.file)}`)}>
                  {say('translate')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </Flex>
  );
}
