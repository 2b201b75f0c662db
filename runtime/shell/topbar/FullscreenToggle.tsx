import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The full-screen toggle; where the Fullscreen API is missing or refused it warns (spec 5, 8). */
export function FullscreenToggle() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);

  useEffect(() => {
    const onChange = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const toggle = async () => {
    if (!document.fullscreenEnabled || typeof document.documentElement.requestFullscreen !== 'function') {
      void message.warning(t('shell.fullscreen.unsupported'));
      return;
    }
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch {
      void message.warning(t('shell.fullscreen.unsupported'));
    }
  };

  const label = full ? t('shell.fullscreen.exit') : t('shell.fullscreen.enter');
  return (
    <Button
      type="text"
      aria-label={label}
      title={label}
      aria-pressed={full}
      icon={full ? <FullscreenExitOutlined aria-hidden /> : <FullscreenOutlined aria-hidden />}
      onClick={() => void toggle()}
      data-testid="fullscreen-toggle"
    />
  );
}
