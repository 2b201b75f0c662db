/**
 * /studio/edit/:kind/:name — the editor: CodeMirror beside the live preview, checked as
 * you type, with draft, server check, publish with a comment, revisions, diff and
 * restore. The document comes from the store (GET /api/studio/document: the caller's
 * draft, else the published revision, else the bundled one); without the store the
 * console's own copy is shown and nothing can be saved.
 */
import { Alert, App as AntApp, Button, Col, Flex, Input, List, Modal, Row, Select, Space, Switch, Tabs, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { pointerLocator } from '../../runtime/schema/pointer-position.ts';
import type { SchemaRegistry } from '../../runtime/schema/registry.ts';
import { documentTypeOfPath } from '../../runtime/schema/registry.ts';
import type { WidgetProps } from '../../runtime/widgets/api.ts';
import { isMissingApi, refusalOf, type DocType, type GateProblem, type Refusal, type ViewAsRole } from './api.ts';
import { checkDraft } from './check.ts';
import { documentText, fileOf, type DraftCheck } from './effective.ts';
import { JsonEditor } from './JsonEditor.tsx';
import { Preview } from './Preview.tsx';
import { RevisionsPanel } from './RevisionsPanel.tsx';
import { useStudio } from './use-studio.ts';

interface Loaded {
  file: string;
  type: DocType;
  text: string;
  baseRevision: number;
  /** The store answered (drafts and publishing possible). */
  stored: boolean;
}

export function EditorScreen(props: WidgetProps) {
  const { registry, route, services, language } = props;
  const studio = useStudio(props);
  const { say, api, effective, own } = studio;
  const { message } = AntApp.useApp();
  const file = fileOf(registry, route.kind, route.name ? decodeURIComponent(route.name) : undefined);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [check, setCheck] = useState<DraftCheck | null>(null);
  const [lastValid, setLastValid] = useState<{ registry: SchemaRegistry; version: number } | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [serverProblems, setServerProblems] = useState<GateProblem[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [publishOpen, setPublishOpen] = useState(false);
  const [comment, setComment] = useState('');
  const [roles, setRoles] = useState<ViewAsRole[]>([]);
  const [viewAs, setViewAs] = useState<string>('');
  const [pseudo, setPseudo] = useState(false);
  /** Raised when a text is pushed into the editor from outside (a restored change). */
  const [pushed, setPushed] = useState(0);
  const [reloads, setReloads] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reloads` reads the document again after a publish or rollback
  useEffect(() => {
    if (!file) return;
    let live = true;
    const type = documentTypeOfPath(file) as DocType;
    const local = effective.find((d) => d.file === file)?.content;
    api
      .document(file)
      .then((d) => {
        const content = d.draft?.content ?? d.published?.content ?? d.bundled ?? local;
        const base = d.draft?.baseRevision ?? d.revision;
        if (live) setLoaded({ file, type, text: documentText(content), baseRevision: base, stored: true });
      })
      .catch((e: unknown) => {
        if (!live) return;
        if (isMissingApi(e) && local !== undefined) setLoaded({ file, type, text: documentText(local), baseRevision: 0, stored: false });
        else setFailed(e instanceof Error ? e.message : String(e));
      });
    api
      .viewAs()
      .then((r) => live && setRoles(Array.isArray(r) ? r : []))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [file, api, reloads]);

  useEffect(() => {
    if (loaded) setText(loaded.text);
  }, [loaded]);

  const versions = useRef(0);
  const lastValidText = useRef<string | null>(null);
  const runCheck = useCallback(
    (t: string): GateProblem[] => {
      if (!file) return [];
      const result = checkDraft(file, t, effective, language);
      setCheck(result);
      // A new valid draft remounts the preview (which reads its data again): only when it changed.
      if (result.registry && t !== lastValidText.current) {
        lastValidText.current = t;
        setLastValid({ registry: result.registry, version: ++versions.current });
      }
      return result.problems;
    },
    [file, effective, language],
  );
  // The first render of a document is checked at once (the linter waits for typing).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when a document is loaded
  useEffect(() => {
    if (loaded) runCheck(loaded.text);
  }, [loaded]);

  const grants = useMemo(() => {
    const role = roles.find((r) => r.role === viewAs);
    return role ? { menus: role.menus, elements: role.elements } : own;
  }, [roles, viewAs, own]);

  const screenId = useMemo(() => {
    if (loaded?.type !== 'screen') return null;
    const v = check?.value as { id?: unknown } | undefined;
    return typeof v?.id === 'string' ? v.id : (route.name ?? null);
  }, [check, loaded, route.name]);

  if (!file) return <Alert type="error" showIcon title={say('loadFailed')} description={`${route.kind ?? ''}/${route.name ?? ''}`} />;
  if (failed) return <Alert type="error" showIcon title={say('loadFailed')} description={failed} />;
  if (!loaded) return <p aria-busy="true">{say('loading')}</p>;

  const errors = check?.problems.filter((p) => p.severity === 'error') ?? [];
  const locate = pointerLocator(text);
  const where = (p: GateProblem) => {
    const syntax = p as GateProblem & { offset?: number };
    const pos = typeof syntax.offset === 'number' ? { ...lineCol(text, syntax.offset) } : locate(p.pointer);
    return say('lineColumn', { line: pos.line, column: pos.column });
  };

  const saveDraft = async () => {
    setBusy(true);
    try {
      await api.saveDraft(file, text, loaded.baseRevision);
      message.success(say('draftSaved'));
    } catch (e) {
      message.error(refusalOf(e, file).message);
    } finally {
      setBusy(false);
    }
  };
  const discardDraft = async () => {
    setBusy(true);
    try {
      await api.deleteDraft(file);
      setReloads((n) => n + 1);
    } catch (e) {
      message.error(refusalOf(e, file).message);
    } finally {
      setBusy(false);
    }
  };
  const serverCheck = async () => {
    setBusy(true);
    try {
      setServerProblems((await api.check(file, text)).problems);
    } catch (e) {
      message.error(refusalOf(e, file).message);
    } finally {
      setBusy(false);
    }
  };
  const publish = async () => {
    if (!comment.trim()) {
      message.warning(say('commentRequired'));
      return;
    }
    setBusy(true);
    setRefusal(null);
    try {
      const r = await api.publish(file, text, loaded.baseRevision, comment.trim());
      setPublishOpen(false);
      setComment('');
      message.success(say('publishedAs', { n: r.revision }));
      setLoaded({ ...loaded, text, baseRevision: r.revision });
    } catch (e) {
      setPublishOpen(false);
      setRefusal(refusalOf(e, file));
    } finally {
      setBusy(false);
    }
  };

  const canPublish = loaded.stored && services.access.can('studioDocuments', 'publish');
  const roleOptions = [{ value: '', label: say('myself') }, ...roles.map((r) => ({ value: r.role, label: `${r.name[language] ?? r.role} (${r.role})` }))];

  return (
    <Flex vertical gap={12} data-testid="studio-edit">
      <Flex gap={8} wrap align="center">
        <Typography.Text code>{file}</Typography.Text>
        <Tag>{loaded.baseRevision ? say('published', { n: loaded.baseRevision }) : effective.some((d) => d.file === file) ? say('bundled') : say('newDoc')}</Tag>
        {check ? (
          <Tag color={errors.length ? 'error' : undefined} data-testid="studio-problem-count">
            {errors.length ? say('problems', { n: errors.length }) : say('noProblems')} · {say('validationTime', { ms: check.ms.toFixed(0) })}
          </Tag>
        ) : null}
        <Space wrap style={{ marginLeft: 'auto' }}>
          <Button onClick={() => void saveDraft()} disabled={!loaded.stored || busy}>
            {say('saveDraft')}
          </Button>
          <Button onClick={() => void discardDraft()} disabled={!loaded.stored || busy}>
            {say('discardDraft')}
          </Button>
          <Button onClick={() => void serverCheck()} disabled={!loaded.stored || busy}>
            {say('check')}
          </Button>
          <Button type="primary" onClick={() => setPublishOpen(true)} disabled={!canPublish || busy}>
            {say('publish')}
          </Button>
        </Space>
      </Flex>
      {refusal ? <RefusalView refusal={refusal} where={where} say={say} language={language} onClose={() => setRefusal(null)} /> : null}
      {serverProblems ? (
        <Alert
          type={serverProblems.length ? 'warning' : 'success'}
          closable={{ onClose: () => setServerProblems(null) }}
          title={serverProblems.length ? say('problems', { n: serverProblems.length }) : say('noProblems')}
          description={<ProblemList problems={serverProblems} where={where} />}
        />
      ) : null}
      <Row gutter={16}>
        <Col xs={24} xl={12} style={{ height: '72vh' }}>
          <JsonEditor value={loaded.text} version={pushed} type={loaded.type} check={runCheck} onChange={setText} label={file} />
        </Col>
        <Col xs={24} xl={12}>
          <Tabs
            items={[
              {
                key: 'preview',
                label: say('preview'),
                children: (
                  <Flex vertical gap={8}>
                    <Space>
                      <Typography.Text>{say('viewAs')}</Typography.Text>
                      <Select aria-label={say('viewAs')} data-testid="studio-view-as" style={{ minWidth: 220 }} value={viewAs} options={roleOptions} onChange={setViewAs} />
                      <Switch checked={pseudo} onChange={setPseudo} aria-label={say('pseudo')} data-testid="studio-pseudo" />
                      <Typography.Text>{say('pseudo')}</Typography.Text>
                    </Space>
                    {pseudo ? <Typography.Text type="secondary">{say('pseudoHelp')}</Typography.Text> : null}
                    {errors.length ? <Alert type="warning" showIcon data-testid="studio-preview-stale" title={say('previewStale', { why: `${where(errors[0])}: ${errors[0].message}` })} /> : null}
                    {lastValid && loaded.type === 'screen' ? (
                      <Preview registry={lastValid.registry} screenId={screenId} services={services} grants={grants} say={say} version={lastValid.version} pseudo={pseudo} />
                    ) : loaded.type !== 'screen' ? (
                      <Typography.Paragraph type="secondary">{say('previewNoRoute')}</Typography.Paragraph>
                    ) : null}
                  </Flex>
                ),
              },
              {
                key: 'problems',
                label: check?.problems.length ? say('problems', { n: check.problems.length }) : say('noProblems'),
                children: <ProblemList problems={check?.problems ?? []} where={where} />,
              },
              {
                key: 'revisions',
                label: say('revisions'),
                children: (
                  <RevisionsPanel
                    file={file}
                    studio={studio}
                    language={language}
                    draftText={text}
                    baseRevision={loaded.baseRevision}
                    canRollback={loaded.stored && services.access.can('studioDocuments', 'rollback')}
                    onDraft={(next) => {
                      setLoaded({ ...loaded, text: next });
                      setPushed((n) => n + 1);
                    }}
                    onPublished={() => setReloads((n) => n + 1)}
                  />
                ),
              },
            ]}
          />
        </Col>
      </Row>
      {/* The server is the gate: a publish is sent even with problems shown here, and refused there with each at its line and column. */}
      <Modal open={publishOpen} title={say('publish')} onOk={() => void publish()} okButtonProps={{ loading: busy }} onCancel={() => setPublishOpen(false)}>
        {errors.length ? <Alert type="warning" showIcon style={{ marginBottom: 8 }} title={say('problems', { n: errors.length })} /> : null}
        <Input.TextArea aria-label={say('comment')} placeholder={say('comment')} value={comment} onChange={(e) => setComment(e.target.value)} rows={3} />
      </Modal>
    </Flex>
  );
}

function lineCol(text: string, offset: number) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

export function ProblemList({ problems, where }: { problems: readonly GateProblem[]; where: (p: GateProblem) => string }) {
  return (
    <List
      size="small"
      data-testid="studio-problems"
      dataSource={[...problems]}
      renderItem={(p) => (
        <List.Item>
          <Space direction="vertical" size={0}>
            <Typography.Text type={p.severity === 'error' ? 'danger' : 'warning'}>
              {where(p)} · <Typography.Text code>{p.pointer || '/'}</Typography.Text>
            </Typography.Text>
            <Typography.Text>{p.message}</Typography.Text>
          </Space>
        </List.Item>
      )}
    />
  );
}

function RefusalView({ refusal, where, say, language, onClose }: { refusal: Refusal; where: (p: GateProblem) => string; say: ReturnType<typeof useStudio>['say']; language: WidgetProps['language']; onClose: () => void }) {
  if (refusal.kind === 'meanwhile') {
    const c = refusal.current;
    return (
      <Alert
        type="error"
        role="alert"
        data-testid="studio-refusal"
        closable={{ onClose }}
        title={refusal.message}
        description={
          <>
            <Typography.Paragraph>{say('meanwhile', { author: c.author, n: c.revision, comment: c.comment })}</Typography.Paragraph>
            <ul>
              {refusal.changes.map((ch) => (
                <li key={`${ch.kind}${ch.pointer}`}>{ch.text[language]}</li>
              ))}
            </ul>
          </>
        }
      />
    );
  }
  return (
    <Alert
      type="error"
      role="alert"
      data-testid="studio-refusal"
      closable={{ onClose }}
      title={`${say('refused')}: ${refusal.message}`}
      description={refusal.kind === 'problems' ? <ProblemList problems={refusal.problems} where={where} /> : null}
    />
  );
}
