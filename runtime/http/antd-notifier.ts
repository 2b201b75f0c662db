import type { App } from 'antd';
import type { Notifier } from './notifier.ts';

type AppApi = ReturnType<typeof App.useApp>;

/** The catalogue's UI effects with antd's message and Modal (from App.useApp()). */
export function antdNotifier(api: Pick<AppApi, 'message' | 'modal'>): Notifier {
  return {
    error: (text, durationMs) =>
      new Promise<void>((resolve) => {
        void api.message.error({ content: text, duration: durationMs / 1000, onClose: resolve });
      }),
    warning: (text) => {
      void api.message.warning(text);
    },
    confirm: (box) =>
      new Promise<boolean>((resolve) => {
        api.modal.confirm({
          title: box.title,
          content: box.content,
          okText: box.okText,
          cancelText: box.cancelText,
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        });
      }),
  };
}
