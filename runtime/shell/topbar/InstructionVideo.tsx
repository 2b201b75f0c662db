import { PlayCircleOutlined } from '@ant-design/icons';
import { Button, Empty, Modal, Skeleton, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleConfigAtom } from '../state/atoms.ts';

/** Spec section 9: the instruction video dialog is 90 % wide. */
export const INSTRUCTION_DIALOG_WIDTH = '90%';

/** The current page's quick guide: its title and the paragraphs of its `help` text. */
export interface PageGuide {
  page: string;
  paragraphs: string[];
  /** Fetches the paragraphs when `paragraphs` is empty: a bundled screen's help is a chunk of its own. */
  load?: () => Promise<string[]>;
}

/**
 * The instruction link and its dialog. With a video configured on the server, the video,
 * the current page's quick guide under it; without one, the quick guide alone (the screen
 * document's `help`, docs/screens.md), never an empty "not configured" box.
 */
export function InstructionVideo({ compact = false, guide }: { compact?: boolean; guide?: PageGuide }) {
  const { t } = useTranslation();
  const config = useAtomValue(consoleConfigAtom);
  const [open, setOpen] = useState(false);
  const url = config?.instructionVideoUrl ?? '';
  const loaded = useLoadedGuide(open ? guide : undefined);
  const paragraphs = guide?.paragraphs.length ? guide.paragraphs : (loaded ?? []);
  const loading = open && !!guide?.load && !guide.paragraphs.length && loaded === undefined;
  const hasGuide = !!guide && (paragraphs.length > 0 || loading);
  const title = url ? t('shell.instruction.videoTitle') : hasGuide ? t('shell.instruction.guideTitle', { page: guide.page }) : t('shell.instruction.title');
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
        title={title}
        width={url ? INSTRUCTION_DIALOG_WIDTH : 640}
        footer={null}
        onCancel={() => setOpen(false)}
        destroyOnHidden
        data-testid="instruction-dialog"
      >
        {url ? (
          // The video stops when the dialog closes: destroyOnHidden removes it. The configured
          // file comes without captions; the written quick guide below says the same in words.
          // biome-ignore lint/a11y/useMediaCaption: no caption track exists for a configured URL
          <video src={url} controls style={{ width: '100%', maxHeight: '75vh', background: '#000' }} data-testid="instruction-video">
            {t('shell.instruction.noVideoSupport')}
          </video>
        ) : null}
        {hasGuide ? (
          <section aria-label={t('shell.instruction.guide')} data-testid="instruction-guide" style={{ marginTop: url ? 16 : 0 }}>
            {url ? <Typography.Title level={5}>{t('shell.instruction.guideTitle', { page: guide.page })}</Typography.Title> : null}
            {loading ? (
              <div aria-busy="true">
                <Skeleton active title={false} />
              </div>
            ) : (
              paragraphs.map((p, i) => <Typography.Paragraph key={i}>{p}</Typography.Paragraph>)
            )}
          </section>
        ) : url ? null : (
          <Empty description={t('shell.instruction.empty')} data-testid="instruction-empty" />
        )}
      </Modal>
    </>
  );
}

/** The guide's fetched paragraphs once the dialog is open: undefined while they load (or when there is nothing to fetch). */
function useLoadedGuide(guide: PageGuide | undefined): string[] | undefined {
  const [loaded, setLoaded] = useState<{ guide: PageGuide; paragraphs: string[] }>();
  useEffect(() => {
    if (!guide?.load || guide.paragraphs.length) return;
    let live = true;
    guide.load().then(
      (paragraphs) => live && setLoaded({ guide, paragraphs }),
      () => live && setLoaded({ guide, paragraphs: [] }),
    );
    return () => {
      live = false;
    };
  }, [guide]);
  return loaded && loaded.guide === guide ? loaded.paragraphs : undefined;
}
