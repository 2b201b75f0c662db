import { PlayCircleOutlined } from '@ant-design/icons';
import { Button, Empty, Modal } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleConfigAtom } from '../state/atoms.ts';

/** Spec section 9: the instruction video dialog is 90 % wide. */
export const INSTRUCTION_DIALOG_WIDTH = '90%';

/** The instruction link and its video dialog; the address comes from the server's configuration. */
export function InstructionVideo({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const config = useAtomValue(consoleConfigAtom);
  const [open, setOpen] = useState(false);
  const url = config?.instructionVideoUrl ?? '';
  return (
    <>
      <Button
        type="link"
        icon={<PlayCircleOutlined aria-hidden />}
        onClick={() => setOpen(true)}
        aria-label={compact ? t('shell.instruction.link') : undefined}
        title={t('shell.instruction.link')}
        data-testid="instruction-link"
      >
        {!compact && t('shell.instruction.link')}
      </Button>
      <Modal
        open={open}
        title={t('shell.instruction.title')}
        width={INSTRUCTION_DIALOG_WIDTH}
        footer={null}
        onCancel={() => setOpen(false)}
        destroyOnHidden
        data-testid="instruction-dialog"
      >
        {url ? (
          // The video stops when the dialog closes: destroyOnHidden removes it.
          <video src={url} controls style={{ width: '100%', maxHeight: '75vh', background: '#000' }} data-testid="instruction-video">
            {t('shell.instruction.noVideoSupport')}
          </video>
        ) : (
          <Empty description={t('shell.instruction.empty')} data-testid="instruction-empty" />
        )}
      </Modal>
    </>
  );
}
