/**
 * What an invalid screen document shows in its own place (its routes, its tab), while
 * the rest of the console keeps working: the file and, for each problem, the JSON
 * pointer into the document and the reason, as the registry reported them.
 */
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BrokenScreen } from '../schema/registry.ts';

export function ErrorPanel({ broken }: { broken: Pick<BrokenScreen, 'file' | 'id' | 'problems'> }) {
  const { t } = useTranslation();
  const errors = broken.problems.filter((p) => p.severity === 'error');
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={t('screens.invalid.title', { id: broken.id ?? broken.file })}
      description={
        <>
          <Typography.Paragraph>{t('screens.invalid.text')}</Typography.Paragraph>
          <Typography.Paragraph>
            <Typography.Text code>{broken.file}</Typography.Text>
          </Typography.Paragraph>
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            {errors.map((p, i) => (
              <li key={i}>
                <Typography.Text code>{`#${p.pointer}`}</Typography.Text> {p.message}
              </li>
            ))}
          </ul>
        </>
      }
    />
  );
}

/** A screen that cannot be shown for a reason other than its document (unknown id, bad mode). */
export function ScreenProblem({ title, text }: { title: string; text?: string }) {
  return <Alert type="error" showIcon role="alert" title={title} description={text} />;
}
