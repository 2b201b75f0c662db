/**
 * "New screen" in the documents view (docs/studio.md, "A new screen"): a table, form,
 * detail or dashboard from the studio's templates (templates.ts), bound to an existing
 * resource, at a route, behind a menu code of the menus. It becomes the configurer's draft
 * of schemas/screens/studio/<id>.json (PUT /api/studio/draft) and opens in the editor, to
 * edit, preview and publish through the same gate as any document. A route or id another
 * screen holds is said on its field at once; the server's gate refuses it all the same.
 */
import { Form, Input, Modal, Select } from 'antd';
import { useMemo, useState } from 'react';
import type { LocalizedText } from '../../runtime/protocol/texts.ts';
import type { SchemaRegistry } from '../../runtime/schema/registry.ts';
import { routeShape } from '../../runtime/schema/route-shape.ts';
import { screenRoutes } from '../../runtime/schema/screen.ts';
import type { Lang } from '../../runtime/schema/texts.ts';
import { refusalOf, type StudioApi } from './api.ts';
import { NEW_SCREEN_ID, NEW_SCREEN_KINDS, newScreenDocument, newScreenFile, templateRoute, type NewScreenKind, type TemplateResource } from './templates.ts';
import { documentText } from './effective.ts';
import type { Say } from './texts.ts';

interface Values {
  kind: NewScreenKind;
  id: string;
  resource: string;
  authority: string;
  route: string;
  zh: string;
  en: string;
  es: string;
}

export function NewScreenDialog({
  open,
  onClose,
  onCreated,
  registry,
  api,
  say,
  language,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (id: string) => void;
  registry: SchemaRegistry;
  api: StudioApi;
  say: Say;
  language: Lang;
}) {
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const resources = useMemo(
    () => [...registry.resources.values()].map((r) => ({ value: r.doc.name, label: `${(r.doc as { title?: LocalizedText }).title?.[language] ?? r.doc.name} (${r.doc.name})` })).sort((a, b) => a.value.localeCompare(b.value)),
    [registry, language],
  );
  /** Menu entries (not sections) by code, with the route a menu link would open. */
  const entries = useMemo(() => {
    const out: { value: string; label: string; link: string }[] = [];
    for (const s of registry.menus?.doc.menus ?? [])
      for (const c of s.children) out.push({ value: c.code, label: `${s.title[language]} / ${c.title[language]} (${c.code})`, link: `/${s.path ?? s.code}` });
    return out;
  }, [registry, language]);
  const taken = useMemo(() => {
    const map = new Map<string, string>();
    for (const s of registry.screens.values()) for (const r of screenRoutes(s.screen)) map.set(routeShape(r.route), s.screen.id);
    return map;
  }, [registry]);

  const create = async () => {
    const v = await form.validateFields();
    const resource = registry.resources.get(v.resource)?.doc as unknown as TemplateResource | undefined;
    if (!resource) return;
    const doc = newScreenDocument({ kind: v.kind, id: v.id, title: { zh: v.zh, en: v.en, es: v.es }, resource, route: v.route, authority: v.authority });
    setBusy(true);
    setFailure(null);
    try {
      await api.saveDraft(newScreenFile(v.id), documentText(doc), 0);
      form.resetFields();
      onCreated(v.id);
    } catch (e) {
      setFailure(refusalOf(e, newScreenFile(v.id)).message);
    } finally {
      setBusy(false);
    }
  };

  const kindLabel: Record<NewScreenKind, string> = { table: say('kindTable'), form: say('kindForm'), detail: say('kindDetail'), dashboard: say('kindDashboard') };
  return (
    <Modal open={open} title={say('newScreen')} okText={say('create')} onOk={() => void create()} okButtonProps={{ loading: busy }} onCancel={onClose} destroyOnHidden width={640}>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ kind: 'table' }}
        onValuesChange={(changed: Partial<Values>, all: Values) => {
          // A route proposed from the menu entry's section and the id, until one is typed.
          if (('authority' in changed || 'id' in changed || 'kind' in changed) && !form.isFieldTouched('route') && all.authority && all.id) {
            const link = entries.find((e) => e.value === all.authority)?.link;
            if (link) form.setFieldValue('route', templateRoute(all.kind, `${link}/${all.id}`));
          }
        }}
      >
        <Form.Item name="kind" label={say('kind')} rules={[{ required: true }]}>
          <Select aria-label={say('kind')} options={NEW_SCREEN_KINDS.map((k) => ({ value: k, label: kindLabel[k] }))} />
        </Form.Item>
        <Form.Item
          name="id"
          label="id"
          extra={say('newScreenIdHelp')}
          rules={[
            { required: true, message: say('required') },
            { pattern: NEW_SCREEN_ID, message: say('newScreenIdHelp') },
            { validator: async (_, id: string) => (id && registry.screens.has(id) ? Promise.reject(new Error(say('idTaken', { id }))) : undefined) },
          ]}
        >
          <Input aria-label="id" placeholder="cropsOverview" />
        </Form.Item>
        <Form.Item name="resource" label={say('resource')} rules={[{ required: true, message: say('required') }]}>
          <Select aria-label={say('resource')} showSearch={{ optionFilterProp: 'label' }} options={resources} />
        </Form.Item>
        <Form.Item name="authority" label={say('menuCode')} extra={say('menuCodeHelp')} rules={[{ required: true, message: say('required') }]}>
          <Select aria-label={say('menuCode')} showSearch={{ optionFilterProp: 'label' }} options={entries} />
        </Form.Item>
        <Form.Item
          name="route"
          label={say('routes')}
          rules={[
            { required: true, message: say('required') },
            { pattern: /^\/[A-Za-z0-9_:/-]+$/, message: say('routeForm') },
            {
              validator: async (_, route: string) => {
                const holder = route ? taken.get(routeShape(route)) : undefined;
                if (holder) throw new Error(say('routeTaken', { route, screen: holder }));
              },
            },
          ]}
        >
          <Input aria-label={say('routes')} placeholder="/agricultureKnowledge/cropsOverview" />
        </Form.Item>
        {(['zh', 'en', 'es'] as const).map((l) => (
          <Form.Item key={l} name={l} label={`${say('title')} (${l})`} rules={[{ required: true, whitespace: true, message: say('required') }]}>
            <Input aria-label={`${say('title')} ${l}`} />
          </Form.Item>
        ))}
        {failure ? (
          <p role="alert" style={{ color: '#cf1322' }}>
            {failure}
          </p>
        ) : null}
      </Form>
    </Modal>
  );
}
