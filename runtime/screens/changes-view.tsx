/**
 * The `changes` render: «field: old → new» lines (a value alone when nothing was
 * replaced). A cell shows the first lines; the rest open in a popover, since a table row
 * keeps its height.
 */
import { Popover, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ChangeLine {
  title: string;
  from?: string;
  to: string;
}

export function isChangeList(v: unknown): v is ChangeLine[] {
  return Array.isArray(v) && v.every((x) => !!x && typeof x === 'object' && typeof (x as ChangeLine).title === 'string' && typeof (x as ChangeLine).to === 'string');
}

export function lineText(l: ChangeLine): string {
  return l.from === undefined ? `${l.title}: ${l.to}` : `${l.title}: ${l.from} → ${l.to}`;
}

export function changesText(lines: ChangeLine[]): string {
  return lines.map(lineText).join('; ');
}

/** Lines shown in the cell (a table row is one line high) before «all N». */
const SHOWN = 1;

function Line({ line }: { line: ChangeLine }) {
  return (
    <div data-change-line style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} title={lineText(line)}>
      <Typography.Text type="secondary">{line.title}: </Typography.Text>
      {line.from !== undefined ? (
        <>
          <Typography.Text delete>{line.from}</Typography.Text> → <Typography.Text>{line.to}</Typography.Text>
        </>
      ) : (
        <Typography.Text>{line.to}</Typography.Text>
      )}
    </div>
  );
}

export function ChangesView({ lines }: { lines: ChangeLine[] }) {
  const { t } = useTranslation();
  if (!lines.length) return null;
  const full = (
    <div data-testid="changes-all" style={{ maxWidth: 560, maxHeight: 360, overflow: 'auto' }}>
      {lines.map((l, i) => (
        <div key={i} style={{ padding: '2px 0' }}>
          <Typography.Text strong>{l.title}: </Typography.Text>
          {l.from !== undefined ? (
            <>
              <Typography.Text delete>{l.from}</Typography.Text> → <Typography.Text>{l.to}</Typography.Text>
            </>
          ) : (
            <Typography.Text>{l.to}</Typography.Text>
          )}
        </div>
      ))}
    </div>
  );
  return (
    <div data-changes style={{ display: 'flex', gap: 8, alignItems: 'baseline', minWidth: 0 }}>
      <div style={{ minWidth: 0, flex: '1 1 auto' }}>
        {lines.slice(0, SHOWN).map((l, i) => (
          <Line key={i} line={l} />
        ))}
      </div>
      <Popover content={full} trigger="click" placement="left">
        <Typography.Link data-testid="changes-expand" style={{ flex: 'none' }}>{lines.length > SHOWN ? t('changes.all', { count: lines.length }) : t('changes.details')}</Typography.Link>
      </Popover>
    </div>
  );
}
