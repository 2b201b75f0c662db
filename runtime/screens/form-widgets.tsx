/**
 * The widgets and the layout template the form renderer gives rjsf on top of the antd
 * theme: choice widgets fed with options in the current language (inline, dictionary,
 * another resource's records or the record's enum), a switch, an image URL with its
 * preview, and the sections-and-grid layout of the root object.
 */
import { Card, Checkbox, Col, Image, Input, Radio, Row, Select, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import type { ArrayFieldTemplateProps, ObjectFieldTemplateProps, RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import type { ComponentType } from 'react';
import type { LayoutSection, LineTotalUi } from './form-schema.ts';
import { lineAmount, linesTotal } from './line-totals.ts';
import type { ResolvedOption } from './options.ts';
import { CheckboxTreeWidget } from './fields/CheckboxTreeWidget.tsx';
import { RichTextWidget } from './fields/RichTextWidget.tsx';
import { FileUploadWidget } from './fields/FileField.tsx';
import { PointWidget } from './fields/PointField.tsx';

export type { FormContext } from './fields/form-context.ts';

function choicesOf(props: WidgetProps): ResolvedOption[] {
  return ((props.options as { choices?: ResolvedOption[] }).choices ?? []) as ResolvedOption[];
}

function ChoiceSelect(props: WidgetProps) {
  const choices = choicesOf(props);
  const multiple = (props.options as { multiple?: boolean }).multiple;
  const value = multiple ? (Array.isArray(props.value) ? props.value : []) : (props.value ?? undefined);
  return (
    <Select
      id={props.id}
      aria-label={props.label}
      mode={multiple ? 'multiple' : undefined}
      value={value}
      disabled={props.disabled || props.readonly}
      placeholder={props.placeholder}
      allowClear={!props.required}
      showSearch={{ optionFilterProp: 'label' }}
      options={choices.map((c) => ({ value: c.value as string | number, label: c.label }))}
      onChange={(v) => props.onChange(v === undefined || v === null ? undefined : v)}
      onBlur={() => props.onBlur(props.id, props.value)}
      onFocus={() => props.onFocus(props.id, props.value)}
      style={{ width: '100%' }}
    />
  );
}

function ChoiceRadio(props: WidgetProps) {
  return (
    <Radio.Group
      id={props.id}
      aria-label={props.label}
      value={props.value}
      disabled={props.disabled || props.readonly}
      onChange={(e) => props.onChange(e.target.value)}
      options={choicesOf(props).map((c) => ({ value: c.value as string | number, label: c.label }))}
    />
  );
}

function ChoiceCheckboxes(props: WidgetProps) {
  return (
    <Checkbox.Group
      aria-label={props.label}
      value={Array.isArray(props.value) ? props.value : []}
      disabled={props.disabled || props.readonly}
      onChange={(v) => props.onChange(v)}
      options={choicesOf(props).map((c) => ({ value: c.value as string | number, label: c.label }))}
    />
  );
}

function SwitchWidget(props: WidgetProps) {
  return <Switch id={props.id} aria-label={props.label} checked={!!props.value} disabled={props.disabled || props.readonly} onChange={(v) => props.onChange(v)} />;
}

function ImageUrlWidget(props: WidgetProps) {
  const url = typeof props.value === 'string' ? props.value : '';
  return (
    <Space align="start">
      <Input
        id={props.id}
        type="url"
        value={url}
        disabled={props.disabled || props.readonly}
        placeholder={props.placeholder || 'https://'}
        onChange={(e) => props.onChange(e.target.value === '' ? undefined : e.target.value)}
      />
      {/^https?:\/\//.test(url) ? <Image src={url} width={64} height={64} style={{ objectFit: 'cover' }} /> : null}
    </Space>
  );
}

/**
 * A line item's read-only property (`readOnly` in `items.fields`): its value as text, «—»
 * when empty; the form carries the value unchanged, the server ignores it.
 */
function ReadOnlyTextWidget(props: WidgetProps) {
  const v = props.value;
  const text = v === undefined || v === null || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return (
    <span id={props.id} className="sf-readonly-text" data-readonly-field={props.name} style={{ display: 'inline-block', minHeight: 32, lineHeight: '32px' }}>
      {text}
    </span>
  );
}

/** The line total of one row (quantity × unit price, exact, to the fen), after the row's fields. */
function LineTotalCell({ spec, row }: { spec: LineTotalUi; row: Record<string, unknown> | undefined }) {
  const amount = lineAmount(row?.[spec.quantity], row?.[spec.unitPrice]);
  return (
    <div className="ant-form-item" style={{ marginBottom: 24 }}>
      <div className="ant-form-item-label">
        <span>{spec.title}</span>
      </div>
      <output className="sf-line-total" style={{ display: 'inline-block', minHeight: 32, lineHeight: '32px' }}>
        {amount ?? '—'}
      </output>
    </div>
  );
}

/** antd's array template with the sum of the rows' line totals under the rows, when the field declares `items.lineTotal`. */
export function lineItemsArrayTemplate(Base: ComponentType<ArrayFieldTemplateProps>) {
  return function LineItemsArrayTemplate(props: ArrayFieldTemplateProps) {
    const spec = (props.uiSchema?.['ui:options'] as { lineTotal?: LineTotalUi } | undefined)?.lineTotal;
    if (!spec) return <Base {...props} />;
    return (
      <div>
        <Base {...props} />
        <div className="sf-lines-total" role="status" style={{ textAlign: 'right', fontWeight: 600, padding: '4px 8px' }}>
          {spec.totalTitle}：<output data-lines-total>{linesTotal(props.formData, spec.quantity, spec.unitPrice)}</output>
        </div>
      </div>
    );
  };
}

export const formWidgets: RegistryWidgetsType = {
  readOnlyText: ReadOnlyTextWidget,
  choiceSelect: ChoiceSelect,
  choiceRadio: ChoiceRadio,
  choiceCheckboxes: ChoiceCheckboxes,
  switch: SwitchWidget,
  imageUrl: ImageUrlWidget,
  richText: RichTextWidget,
  checkboxTree: CheckboxTreeWidget,
  fileUpload: FileUploadWidget,
  geoPoint: PointWidget,
};

/** Forms with more fields than this render their first sections at once and the rest in later tasks. */
export const STAGED_FROM = 60;
/** Fields rendered in the first stage: about what a screen shows above the fold. */
const FIRST_STAGE_FIELDS = 40;
/** Height a field row takes before it is rendered (label, control, help line). */
const FIELD_ROW_HEIGHT = 82;

/**
 * Root object: one card per section, fields on a grid of the section's columns. Nested
 * objects stack. A long form (more than STAGED_FROM fields) mounts its sections in stages:
 * the sections holding the first FIRST_STAGE_FIELDS fields in the first frame, then one
 * section per task, each yielding to the browser so that the frame can be painted and
 * input handled in between; a section not yet mounted keeps its card, title and height.
 * rjsf validates and submits the whole form data whatever is mounted.
 */
export function SectionsTemplate(props: ObjectFieldTemplateProps) {
  const sections = (props.uiSchema?.['ui:options'] as { sections?: LayoutSection[] } | undefined)?.sections;
  // A line item's row with a line total (items.lineTotal): the amount after its fields.
  const lineTotal = (props.uiSchema?.['ui:options'] as { lineTotal?: LineTotalUi } | undefined)?.lineTotal;
  const byName = new Map(props.properties.map((p) => [p.name, p]));
  const mounted = useStagedSections(sections);
  if (!sections) {
    return (
      <div>
        {props.properties.filter((p) => !p.hidden).map((p) => (
          <div key={p.name}>{p.content}</div>
        ))}
      </div>
    );
  }
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {sections.map((s, i) =>
        // A section whose fields are all hidden (values carried, not shown) draws no empty card.
        s.fields.every((f) => byName.get(f.name)?.hidden ?? true) ? null : (
        <Card key={i} size="small" title={s.title}>
          {i < mounted ? (
            <Row gutter={16}>
              {s.fields.map((f) => {
                const p = byName.get(f.name);
                if (!p || p.hidden) return null;
                return (
                  <Col key={f.name} xs={24} md={Math.round((24 / s.columns) * f.span)}>
                    {p.content}
                  </Col>
                );
              })}
              {lineTotal ? (
                <Col xs={24} md={Math.round(24 / s.columns)}>
                  <LineTotalCell spec={lineTotal} row={props.formData as Record<string, unknown> | undefined} />
                </Col>
              ) : null}
            </Row>
          ) : (
            <div aria-busy style={{ height: Math.ceil(s.fields.reduce((n, f) => n + f.span, 0) / s.columns) * FIELD_ROW_HEIGHT }} />
          )}
        </Card>
        ),
      )}
    </Space>
  );
}

/** How many sections are mounted: all of a short form; a long one's grows one per task. */
function useStagedSections(sections: LayoutSection[] | undefined): number {
  const total = sections?.length ?? 0;
  const staged = !!sections && sections.reduce((n, s) => n + s.fields.length, 0) > STAGED_FROM;
  const [mounted, setMounted] = useState(() => {
    if (!staged) return total;
    let fields = 0;
    let i = 0;
    while (i < total && fields < FIRST_STAGE_FIELDS) fields += sections![i++].fields.length;
    return Math.max(i, 1);
  });
  useEffect(() => {
    if (!staged || mounted >= total) return;
    // After the frame is painted (a task queued from requestAnimationFrame runs after it).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setMounted((n) => n + 1), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [staged, mounted, total]);
  return staged ? mounted : total;
}
