/**
 * /studio/menus — the menu tree (schemas/menus.json): titles in zh / en / es, icons,
 * order and hidden, edited as a table per section; saved as a draft and published through
 * the same gate and API as any document (publishing also writes the menus table).
 */
import { Alert, App as AntApp, Button, Flex, Input, InputNumber, Modal, Space, Switch, Table, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { MenuChild, MenuDocument } from '../../runtime/schema/menus.ts';
import type { WidgetProps } from '../../runtime/widgets/api.ts';
import { refusalOf, type Refusal } from './api.ts';
import { checkDraft } from './check.ts';
import { documentText } from './effective.ts';
import { useStudio } from './use-studio.ts';

const FILE = 'schemas/menus.json';
const LANGS = ['zh', 'en', 'es'] as const;

interface Row {
  key: string;
  /** Index path: [section] or [section, child]. */
  at: [number] | [number, number];
  entry: MenuChild;
  children?: Row[];
}

export function MenusScreen(props: WidgetProps) {
  const { registry, services } = props;
  const { say, api, effective } = useStudio(props);
  const { message } = AntApp.useApp();
  const [doc, setDoc] = useState<MenuDocument | null>(null);
  const [baseRevision, setBaseRevision] = useState(0);
  const [stored, setStored] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [publishOpen, setPublishOpen] = useState(false);
  const [comment, setComment] = useState('');

  useEffect(() => {
    let live = true;
    const local = registry.menus?.doc ?? null;
    api
      .document(FILE)
      .then((d) => {
        if (!live) return;
        setDoc((d.draft ? JSON.parse(d.draft.content) : (d.published?.content ?? d.bundled ?? local)) as MenuDocument);
        setBaseRevision(d.draft?.baseRevision ?? d.revision);
        setStored(true);
      })
      .catch(() => {
        if (live) setDoc(local ? structuredClone(local) : null);
      });
    return () => {
      live = false;
    };
  }, [api, registry]);

  const problems = useMemo(() => (doc ? checkDraft(FILE, documentText(doc), effective, props.language).problems.filter((p) => p.severity === 'error') : []), [doc, effective, props.language]);

  const rows: Row[] = useMemo(
    () =>
      (doc?.menus ?? []).map((s, i) => ({
        key: s.code,
        at: [i] as [number],
        entry: s,
        children: s.children.map((c, j) => ({ key: c.code, at: [i, j] as [number, number], entry: c })),
      })),
    [doc],
  );

  const update = (at: Row['at'], change: (e: MenuChild) => void) => {
    if (!doc) return;
    const next = structuredClone(doc);
    const entry = at.length === 1 ? next.menus[at[0]] : next.menus[at[0]].children[at[1]];
    change(entry);
    setDoc(next);
  };
  /** Swaps the entry with its neighbour in the order shown (sort descending for sections, ascending for children, as the console sorts them). */
  const move = (at: Row['at'], delta: -1 | 1) => {
    if (!doc) return;
    const next = structuredClone(doc);
    const list: MenuChild[] = at.length === 1 ? next.menus : next.menus[at[0]].children;
    const i = at[at.length - 1];
    const j = i + delta;
    if (j < 0 || j >= list.length) return;
    const a = list[i];
    const b = list[j];
    const sa = a.sort ?? 0;
    a.sort = b.sort ?? 0;
    b.sort = sa === a.sort ? sa + (delta > 0 ? -1 : 1) : sa;
    list[i] = b;
    list[j] = a;
    setDoc(next);
  };

  const save = async () => {
    try {
      await api.saveDraft(FILE, documentText(doc), baseRevision);
      message.success(say('draftSaved'));
    } catch (e) {
      message.error(refusalOf(e, FILE).message);
    }
  };
  const publish = async () => {
    if (!comment.trim()) return void message.warning(say('commentRequired'));
    try {
      const r = await api.publish(FILE, documentText(doc), baseRevision, comment.trim());
      setBaseRevision(r.revision);
      setPublishOpen(false);
      setComment('');
      setRefusal(null);
      message.success(say('publishedAs', { n: r.revision }));
    } catch (e) {
      setPublishOpen(false);
      setRefusal(refusalOf(e, FILE));
    }
  };

  if (!doc) return <p aria-busy="true">{say('loading')}</p>;
  return (
    <Flex vertical gap={12} data-testid="studio-menus">
      <Space wrap>
        <Button disabled={!stored} onClick={() => void save()}>
          {say('saveDraft')}
        </Button>
        <Button type="primary" disabled={!stored || !!problems.length || !services.access.can('studioDocuments', 'publish')} onClick={() => setPublishOpen(true)}>
          {say('publish')}
        </Button>
        <Typography.Text type={problems.length ? 'danger' : 'success'}>{problems.length ? say('problems', { n: problems.length }) : say('noProblems')}</Typography.Text>
      </Space>
      {problems.length ? <Alert type="error" showIcon title={problems.slice(0, 5).map((p) => `${p.pointer}: ${p.message}`).join('; ')} /> : null}
      {refusal ? <Alert type="error" showIcon role="alert" closable={{ onClose: () => setRefusal(null) }} title={`${say('refused')}: ${refusal.message}`} description={refusal.kind === 'problems' ? refusal.problems.map((p) => `${p.pointer}: ${p.message}`).join('\n') : null} /> : null}
      <Table<Row>
        rowKey="key"
        size="small"
        dataSource={rows}
        pagination={false}
        expandable={{ defaultExpandAllRows: false }}
        columns={[
          { key: 'code', title: say('code'), width: 240, render: (_, r) => <Typography.Text code>{r.entry.code}</Typography.Text> },
          ...LANGS.map((l) => ({
            key: l,
            title: `${say('title')} ${l}`,
            render: (_: unknown, r: Row) => (
              <Input
                aria-label={`${r.entry.code} ${l}`}
                status={r.entry.title[l]?.trim() ? undefined : 'error'}
                value={r.entry.title[l] ?? ''}
                onChange={(e) => update(r.at, (x) => void (x.title = { ...x.title, [l]: e.target.value }))}
              />
            ),
          })),
          {
            key: 'icon',
            title: say('icon'),
            width: 190,
            render: (_, r) => <Input aria-label={`${r.entry.code} ${say('icon')}`} value={r.entry.icon ?? ''} onChange={(e) => update(r.at, (x) => void (x.icon = e.target.value || undefined))} />,
          },
          {
            key: 'sort',
            title: say('sort'),
            width: 170,
            render: (_, r) => (
              <Space size={2}>
                <InputNumber aria-label={`${r.entry.code} ${say('sort')}`} style={{ width: 80 }} value={r.entry.sort} onChange={(v) => update(r.at, (x) => void (x.sort = typeof v === 'number' ? v : undefined))} />
                <Button size="small" aria-label={say('moveUp')} onClick={() => move(r.at, -1)}>
                  ↑
                </Button>
                <Button size="small" aria-label={say('moveDown')} onClick={() => move(r.at, 1)}>
                  ↓
                </Button>
              </Space>
            ),
          },
          {
            key: 'hidden',
            title: say('hidden'),
            width: 80,
            render: (_, r) => <Switch aria-label={`${r.entry.code} ${say('hidden')}`} checked={!!r.entry.hidden} onChange={(v) => update(r.at, (x) => void (v ? (x.hidden = true) : delete x.hidden))} />,
          },
        ]}
      />
      <Modal open={publishOpen} title={say('publish')} onOk={() => void publish()} onCancel={() => setPublishOpen(false)}>
        <Input.TextArea aria-label={say('comment')} placeholder={say('comment')} value={comment} onChange={(e) => setComment(e.target.value)} rows={3} />
      </Modal>
    </Flex>
  );
}
