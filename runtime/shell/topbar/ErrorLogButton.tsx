import { BugOutlined } from '@ant-design/icons';
import { Badge, Button, Modal } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { errorLogAtom } from '../../errors/error-log.ts';
import { ERROR_LOG_PATH } from '../route-meta.ts';
import { ErrorLogList } from './ErrorLogList.tsx';

/** Spec section 9: the error-log dialog is 80 % wide. */
export const ERROR_LOG_DIALOG_WIDTH = '80%';

/** The error-log button of the top bar (desktop only) and its dialog. */
export function ErrorLogButton() {
  const { t } = useTranslation();
  const count = useAtomValue(errorLogAtom).length;
  const [open, setOpen] = useState(false);
  const label = t('shell.errorLog.button', { count });
  return (
    <>
      <Badge count={count} size="small" offset={[-4, 4]}>
        <Button
          type="text"
          danger={count > 0}
          icon={<BugOutlined aria-hidden />}
          aria-label={label}
          title={label}
          onClick={() => setOpen(true)}
          data-testid="error-log-button"
        />
      </Badge>
      <Modal
        open={open}
        title={t('shell.errorLog.title')}
        width={ERROR_LOG_DIALOG_WIDTH}
        onCancel={() => setOpen(false)}
        footer={
          <Link to={ERROR_LOG_PATH} onClick={() => setOpen(false)}>
            {t('shell.errorLog.openPage')}
          </Link>
        }
        data-testid="error-log-dialog"
      >
        <ErrorLogList />
      </Modal>
    </>
  );
}
