/**
 * The widgets and the layout template the form renderer gives rjsf on top of the antd
 * theme: choice widgets fed with options in the current language (inline, dictionary,
 * another resource's records or the record's enum), a switch, an image URL with its
 * preview, and the sections-and-grid layout of the root object.
 */
import { Card, Checkbox, Col, Image, Input, Radio, Row, Select, Space, Switch } from 'antd';
import type { ObjectFieldTemplateProps, RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import type { LayoutSection } from './form-schema.ts';
import type { ResolvedOption } from './options.ts';
import { CheckboxTreeWidget } from './fields/CheckboxTreeWidget.tsx';
import { RichTextWidget } from './fields/RichTextWidget.tsx';

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

export const formWidgets: RegistryWidgetsType = {
  choiceSelect: ChoiceSelect,
  choiceRadio: ChoiceRadio,
  choiceCheckboxes: ChoiceCheckboxes,
  switch: SwitchWidget,
  imageUrl: ImageUrlWidget,
  richText: RichTextWidget,
  checkboxTree: CheckboxTreeWidget,
};

/** Root object: one card per section, fields on a grid of the section's columns. Nested objects stack. */
export function SectionsTemplate(props: ObjectFieldTemplateProps) {
  const sections = (props.uiSchema?.['ui:options'] as { sections?: LayoutSection[] } | undefined)?.sections;
  const byName = new Map(props.properties.map((p) => [p.name, p]));
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
      {sections.map((s, i) => (
        <Card key={i} size="small" title={s.title}>
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
          </Row>
        </Card>
      ))}
    </Space>
  );
}
