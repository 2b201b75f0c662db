/**
 * /studio/translations — pick a document; every text of it in a zh / en / es grid with
 * its JSON pointer, missing ones highlighted, edited in place into the caller's draft
 * (PUT /api/studio/draft), and a pseudo-locale column that shows where a longer text is
 * cut off at the width the console gives it.
 */
import { Alert, App as AntApp, Button, Flex, Input, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { WidgetProps } from '../../runtime/widgets/api.ts';
import { refusalOf } from './api.ts';
import { checkDraft } from './check.ts';
import { documentText, editRoute } from './effective.ts';
import { localDocuments } from './DocumentsScreen.tsx';
import { pseudoLocalize, textsOf, withText, type TextEntry } from './pseudo.ts';
import { useStudio } from './use-studio.ts';

const LANGS = ['zh', 'en', 'es'] as const;

export function TranslationsScreen(props: WidgetProps) {
  const { registry, language, services } = props;
  const { say, api, effective } = useStudio(props);
  const { message } = AntApp.useApp();
  const docs = useMemo(() => localDocuments(registry), [registry]);
  const [file, setFile] = useState<string>(() => new URLSearchParams(window.location.search).get('file') ?? docs.find((d) => d.type === 'screen')?.file ?? '');
  const [doc, setDoc] = useState<unknown>(null);
  const [baseRevision, setBaseRevision] = useState(0);
  const [stored, setStored] = useState(false);
  const [dirty, setDirty] = useState(false);
  const [missingOnly, setMissingOnly] = useState(false);
  const [pseudo, setPseudo] = useState(false);

  useEffect(() => {
    if (!file) return;
    let live = true;
    const local = effective.find((d) => d.file === file)?.content ?? null;
    setDirty(false);
    api
      .document(file)
      .then((d) => {
        if (!live) return;
        const content = d.draft ? JSON.parse(d.draft.content) : (d.published?.content ?? d.bundled ?? local);
        setDoc(content);
        setBaseRevision(d.draft?.baseRevision ?? d.revision);
        setStored(true);
      })
      .catch(() => {
        if (!live) return;
        setDoc(local);
        setBaseRevision(0);
        setStored(false);
      });
    return () => {
      live = false;
    };
  }, [file, api, effective]);

  const entries = useMemo(() => (doc ? textsOf(doc) : []), [doc]);
  const missing = (e: TextEntry) => LANGS.filter((l) => !e[l]?.trim());
  const rows = missingOnly ? entries.filter((e) => missing(e).length) : entries;
  const missingTotal = entries.reduce((n, e) => n + missing(e).length, 0);
  const problems = useMemo(() => (doc && dirty ? checkDraft(file, documentText(doc), effective, language).problems.filter((p) => p.severity === 'error') : []), [doc, dirty, file, effective, language]);

  const save = async () => {
    try {
      await api.saveDraft(file, documentText(doc), baseRevision);
      setDirty(false);
      message.success(say('draftSaved'));
    } catch (e) {
      message.error(refusalOf(e, file).message);
    }
  };
  const summary = docs.find((d) => d.file === file);

  return (
    <Flex vertical gap={12} data-testid="studio-translations">
      <Space wrap>
        <Select
          aria-label={say('pickDocument')}
          style={{ width: 420 }}
          showSearch={{ optionFilterProp: 'label' }}
          value={file}
          onChange={setFile}
          options={docs.map((d) => ({ value: d.file, label: `${d.title?.[language] ?? d.id} — ${d.file}` }))}
        />
        <Tag color={missingTotal ? 'error' : undefined}>{say('missingCount', { n: missingTotal })}</Tag>
        <Space>
          <Switch checked={missingOnly} onChange={setMissingOnly} aria-label={say('missingOnly')} />
          {say('missingOnly')}
        </Space>
        <Space>
          <Switch checked={pseudo} onChange={setPseudo} aria-label={say('pseudo')} />
          {say('pseudo')}
        </Space>
        <Button type="primary" disabled={!stored || !dirty} onClick={() => void save()}>
          {say('saveDraft')}
        </Button>
        {summary ? (
          <Button type="link" onClick={() => services.navigate(editRoute(summary))}>
            {say('openEditor')}
          </Button>
        ) : null}
      </Space>
      {pseudo ? <Typography.Text type="secondary">{say('pseudoHelp')}</Typography.Text> : null}
      {problems.length ? <Alert type="warning" showIcon title={say('problems', { n: problems.length })} description={problems.slice(0, 5).map((p) => `${p.pointer}: ${p.message}`).join('\n')} /> : null}
      <Table<TextEntry>
        rowKey="pointer"
        size="small"
        dataSource={rows}
        pagination={{ defaultPageSize: 50 }}
        columns={[
          { key: 'pointer', title: say('pointer'), width: 260, render: (_, e) => <Typography.Text code>{e.pointer}</Typography.Text> },
          ...LANGS.map((l) => ({
            key: l,
            title: l,
            render: (_: unknown, e: TextEntry) => (
              <Input
                aria-label={`${e.pointer} ${l}`}
                status={e[l]?.trim() ? undefined : 'error'}
                style={e[l]?.trim() ? undefined : { background: '#fff1f0' }}
                value={e[l] ?? ''}
                onChange={(ev) => {
                  setDoc(withText(doc, e.pointer, l, ev.target.value));
                  setDirty(true);
                }}
              />
            ),
          })),
          ...(pseudo
            ? [{ key: 'pseudo', title: say('pseudo'), width: 200, render: (_: unknown, e: TextEntry) => <PseudoCell text={e.en ?? e.zh ?? ''} say={say} /> }]
            : []),
        ]}
      />
    </Flex>
  );
}

/** The pseudo-localized text at a title's usual width; flagged when it does not fit. */
function PseudoCell({ text, say }: { text: string; say: ReturnType<typeof useStudio>['say'] }) {
  const ref = useRef<HTMLDivElement>(null);
  const [cut, setCut] = useState(false);
  const shown = pseudoLocalize(text);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el) setCut(el.scrollWidth > el.clientWidth);
  }, [shown]);
  return (
    <Space direction="vertical" size={0}>
      <div ref={ref} title={shown} style={{ width: 180, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
        {shown}
      </div>
      {cut ? <Tag color="warning">{say('truncated')}</Tag> : null}
    </Space>
  );
}
