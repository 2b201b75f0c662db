import { Input } from 'antd';
import { lazy, Suspense, type ComponentProps } from 'react';

// antd's pickers (with their panels, time columns and dayjs plugins) are about 60 kB gzip:
// table screens load them only when a filter of a date kind is declared.
const DatePicker = lazy(() => import('antd/es/date-picker/index.js').then((m) => ({ default: m.default })));
const RangePicker = lazy(() => import('antd/es/date-picker/index.js').then((m) => ({ default: m.default.RangePicker })));

type DateProps = ComponentProps<typeof import('antd').DatePicker>;
type RangeProps = ComponentProps<typeof import('antd').DatePicker.RangePicker>;

/** A box of the same size while the picker loads, so the filter row does not move. */
const Placeholder = ({ style }: { style?: React.CSSProperties }) => <Input disabled style={style} aria-busy="true" />;

/** antd's DatePicker, fetched on first use; Form.Item's value, onChange and id pass through. */
export function LazyDatePicker(props: DateProps) {
  return (
    <Suspense fallback={<Placeholder style={props.style} />}>
      <DatePicker {...props} />
    </Suspense>
  );
}

/** antd's RangePicker, fetched on first use. */
export function LazyRangePicker(props: RangeProps) {
  return (
    <Suspense fallback={<Placeholder style={props.style} />}>
      <RangePicker {...props} />
    </Suspense>
  );
}
