/**
 * Revisions of a document, a readable diff of the draft or any revision against any other,
 * and restoring: a whole revision (POST /api/studio/rollback, a new revision through the
 * gate) or a single change (taken back into the draft, to publish with the rest).
 */
import { Alert, App as AntApp, Button, Empty, Flex, Input, List, Modal, Select, Space, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { Lang } from '../../runtime/schema/texts.ts';
import { refusalOf, type DocumentChange, type RevisionSummary } from './api.ts';
import { applyChange, describeChanges } from '../../runtime/schema/diff.ts';
import { documentText } from './effective.ts';
import type { Studio } from './use-studio.ts';

const DRAFT = 'draft';

export interface RevisionsPanelProps {
  file: string;
  studio: Studio;
  language: Lang;
  draftText: string;
  baseRevision: number;
  canRollback: boolean;
  onDraft: (text: string) => void;
  onPublished: () => void;
}

export function RevisionsPanel({ file, studio, language, draftText, baseRevision, canRollback, onDraft, onPublished }: RevisionsPanelProps) {
  const { api, say, effective } = studio;
  const { message } = AntApp.useApp();
  const [revisions, setRevisions] = useState<RevisionSummary[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [left, setLeft] = useState<string>('0');
  const [right, setRight] = useState<string>(DRAFT);
  const [contents, setContents] = useState<Record<string, unknown>>({});
  const [rollbackOf, setRollbackOf] = useState<number | null>(null);
  const [comment, setComment] = useState('');

  useEffect(() => {
    let live = true;
    api
      .revisions(file)
      .then((r) => live && setRevisions(r))
      .catch((e: unknown) => live && setFailed(refusalOf(e, file).message));
    return () => {
      live = false;
    };
  }, [api, file, baseRevision]);

  // The content of each revision compared, read once.
  useEffect(() => {
    for (const key of [left, right]) {
      if (key === DRAFT || key in contents) continue;
      const n = Number(key);
      const local = n === 0 ? effective.find((d) => d.file === file)?.content : undefined;
      api
        .revision(file, n)
        .then((c) => setContents((prev) => ({ ...prev, [key]: c })))
        .catch(() => local !== undefined && setContents((prev) => ({ ...prev, [key]: local })));
    }
  }, [left, right, contents, api, file, effective]);

  const draftValue = useMemo(() => {
    try {
      return JSON.parse(draftText) as unknown;
    } catch {
      return undefined;
    }
  }, [draftText]);
  const contentOf = (key: string) => (key === DRAFT ? draftValue : contents[key]);
  const before = contentOf(left);
  const after = contentOf(right);
  const changes: DocumentChange[] | null = before !== undefined && after !== undefined ? describeChanges(before, after) : null;

  const options = [
    { value: DRAFT, label: say('theDraft') },
    ...(revisions ?? [{ revision: 0, author: null, at: null, comment: null }]).map((r) => ({
      value: String(r.revision),
      label: r.revision === 0 ? say('bundledRevision') : `${say('revision', { n: r.revision })} · ${r.author ?? ''} · ${r.comment ?? ''}`,
    })),
  ];

  const restoreChange = (change: DocumentChange) => {
    // Only into the draft: the change of `left → draft` is taken back to `left`'s value.
    if (right !== DRAFT || draftValue === undefined) return;
    onDraft(documentText(applyChange(draftValue, change, before)));
  };

  const rollback = async () => {
    if (rollbackOf === null) return;
    if (!comment.trim()) {
      message.warning(say('commentRequired'));
      return;
    }
    try {
      const r = await api.rollback(file, rollbackOf, baseRevision, comment.trim());
      message.success(say('rollbackDone', { n: r.revision }));
      setRollbackOf(null);
      setComment('');
      onPublished();
    } catch (e) {
      message.error(refusalOf(e, file).message);
    }
  };

  return (
    <Flex vertical gap={12} data-testid="studio-revisions">
      {failed ? <Alert type="info" showIcon title={failed} /> : null}
      <List
        size="small"
        dataSource={revisions ?? []}
        renderItem={(r) => (
          <List.Item
            actions={[
              <Button key="compare" size="small" onClick={() => (setLeft(String(r.revision)), setRight(DRAFT))}>
                {say('compare')}
              </Button>,
              <Button key="rollback" size="small" danger disabled={!canRollback || r.revision === baseRevision} onClick={() => setRollbackOf(r.revision)}>
                {say('rollback')}
              </Button>,
            ]}
          >
            <Space direction="vertical" size={0}>
              <Typography.Text strong>{r.revision === 0 ? say('bundledRevision') : say('revision', { n: r.revision })}</Typography.Text>
              <Typography.Text type="secondary">
                {[r.author, r.at ? new Date(r.at).toLocaleString(language) : null, r.comment].filter(Boolean).join(' · ')}
              </Typography.Text>
            </Space>
          </List.Item>
        )}
      />
      <Space wrap>
        <Select aria-label={say('compare')} style={{ minWidth: 200 }} value={left} options={options} onChange={setLeft} />
        <Typography.Text>{say('compareWith')}</Typography.Text>
        <Select aria-label={say('compareWith')} style={{ minWidth: 200 }} value={right} options={options} onChange={setRight} />
      </Space>
      {changes === null ? null : changes.length === 0 ? (
        <Empty description={say('noChanges')} />
      ) : (
        <List
          size="small"
          data-testid="studio-diff"
          dataSource={changes}
          renderItem={(c) => (
            <List.Item
              actions={
                right === DRAFT
                  ? [
                      <Button key="restore" size="small" onClick={() => restoreChange(c)}>
                        {say('applyChange')}
                      </Button>,
                    ]
                  : []
              }
            >
              <Space direction="vertical" size={0}>
                <Typography.Text>{c.text[language]}</Typography.Text>
                <Typography.Text type="secondary" code>
                  {c.pointer || '/'}
                </Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      )}
      <Modal open={rollbackOf !== null} title={say('rollback')} onOk={() => void rollback()} onCancel={() => setRollbackOf(null)}>
        <Input.TextArea aria-label={say('comment')} placeholder={say('comment')} value={comment} onChange={(e) => setComment(e.target.value)} rows={3} />
      </Modal>
    </Flex>
  );
}
