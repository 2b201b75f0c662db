/**
 * A list's search form, generated from its filters: one field per filter (the widget its
 * operator and property call for), Search and Reset. Values are applied by the list
 * (`onSearch`), which keeps them in the address or in memory (list-state.ts).
 */
import { SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Col, Form, Input, InputNumber, Row, Select, Space, type FormInstance } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { textOf } from '../../schema/texts.ts';
import type { ValueContext } from '../../schema/values.ts';
import { initialFilterValues, type FilterSpec } from '../filters.ts';
import { useLang } from '../host.ts';
import { LazyDatePicker, LazyRangePicker } from '../lazy-date-pickers.tsx';
import { useOptionsList } from '../options.ts';

export interface SearchFormProps {
  /** Names the form, so that its field ids are unique among the screens kept alive. */
  id: string;
  form: FormInstance;
  specs: FilterSpec[];
  initialValues: Record<string, unknown>;
  ctx: ValueContext;
  onSearch: (values: Record<string, unknown>) => void;
}

export function SearchForm({ id, form, specs, initialValues, ctx, onSearch }: SearchFormProps) {
  const { t } = useTranslation();
  return (
    <Form form={form} name={`search-${id}`} layout="vertical" initialValues={initialValues} onFinish={onSearch} role="search" aria-label={t('screens.table.searchForm')}>
      <Row gutter={16}>
        {specs.map((s) => (
          <Col key={s.filter.field} xs={24} sm={12} md={8} xl={6}>
            <FilterField spec={s} ctx={ctx} />
          </Col>
        ))}
        <Col xs={24} sm={12} md={8} xl={6} style={{ display: 'flex', alignItems: 'flex-end', paddingBottom: 24 }}>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              {t('screens.table.search')}
            </Button>
            <Button
              icon={<UndoOutlined />}
              onClick={() => {
                form.resetFields();
                onSearch(initialFilterValues(specs));
              }}
            >
              {t('screens.table.reset')}
            </Button>
          </Space>
        </Col>
      </Row>
    </Form>
  );
}

function FilterField({ spec, ctx }: { spec: FilterSpec; ctx: ValueContext }) {
  const lang = useLang();
  const { t } = useTranslation();
  const sources = useMemo(() => [{ e: spec.filter, prop: spec.prop }], [spec]);
  const [options] = useOptionsList(sources, ctx);
  const f = spec.filter;
  const label = f.title ? textOf(f.title, lang) : spec.prop?.['x-title'] ? textOf(spec.prop['x-title'], lang) : f.field;
  const placeholder = f.placeholder ? textOf(f.placeholder, lang) : undefined;
  const selectOptions = (options ?? []).map((o) => ({ value: o.value as string | number, label: o.label }));
  let control: ReactNode;
  if (spec.op === 'range' && spec.widget === 'number') {
    return (
      <Form.Item label={label} style={{ marginBottom: 24 }}>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name={[f.field, 0]} noStyle>
            <InputNumber style={{ width: '50%' }} placeholder={t('screens.table.from')} aria-label={`${label} ${t('screens.table.from')}`} />
          </Form.Item>
          <Form.Item name={[f.field, 1]} noStyle>
            <InputNumber style={{ width: '50%' }} placeholder={t('screens.table.to')} aria-label={`${label} ${t('screens.table.to')}`} />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
    );
  }
  switch (spec.widget) {
    case 'number':
      control = <InputNumber style={{ width: '100%' }} placeholder={placeholder} />;
      break;
    case 'select':
      control = <Select allowClear placeholder={placeholder ?? t('screens.table.any')} options={selectOptions} showSearch={{ optionFilterProp: 'label' }} />;
      break;
    case 'multiSelect':
      control = <Select mode="multiple" allowClear placeholder={placeholder ?? t('screens.table.any')} options={selectOptions} optionFilterProp="label" />;
      break;
    case 'switch':
      control = (
        <Select
          allowClear
          placeholder={t('screens.table.any')}
          options={[
            { value: true, label: t('screens.yes') },
            { value: false, label: t('screens.no') },
          ]}
        />
      );
      break;
    case 'date':
      control = <LazyDatePicker style={{ width: '100%' }} />;
      break;
    case 'dateRange':
      control = <LazyRangePicker style={{ width: '100%' }} />;
      break;
    case 'datetimeRange':
      control = <LazyRangePicker showTime style={{ width: '100%' }} />;
      break;
    default:
      control = <Input allowClear placeholder={placeholder} />;
  }
  return (
    <Form.Item name={f.field} label={label}>
      {control}
    </Form.Item>
  );
}

