import type { ConfirmBox, Notifier } from './notifier.ts';

/**
 * A Notifier whose implementation is plugged in later: the HTTP client exists before
 * React has rendered the antd App that provides message and Modal.
 */
export interface NotifierSlot extends Notifier {
  attach(notifier: Notifier): () => void;
}

export function createNotifierSlot(fallback: Notifier = consoleNotifier()): NotifierSlot {
  let current: Notifier | null = null;
  const target = () => current ?? fallback;
  return {
    attach(notifier) {
      current = notifier;
      return () => {
        if (current === notifier) current = null;
      };
    },
    error: (text, ms) => target().error(text, ms),
    warning: (text) => target().warning(text),
    confirm: (box: ConfirmBox) => target().confirm(box),
  };
}

/** Before the UI is up: the texts go to the console and confirm boxes answer "stay". */
function consoleNotifier(): Notifier {
  return {
    error: async (text) => console.error(text),
    warning: (text) => console.warn(text),
    confirm: async (box) => {
      console.warn(box.title ?? '', box.content);
      return false;
    },
  };
}
