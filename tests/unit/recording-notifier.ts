import type { ConfirmBox, Notifier } from '../../runtime/http/notifier.ts';

export type NotifierEvent =
  | { type: 'error'; text: string; durationMs: number }
  | { type: 'warning'; text: string }
  | { type: 'confirm'; box: ConfirmBox };

/** A Notifier that records what the client shows and answers confirm boxes with `answer`. */
export function recordingNotifier(answer: boolean | (() => Promise<boolean>) = false) {
  const events: NotifierEvent[] = [];
  let settle: () => void = () => undefined;
  let confirmed = new Promise<void>((r) => (settle = r));
  const notifier: Notifier = {
    async error(text, durationMs) {
      events.push({ type: 'error', text, durationMs });
    },
    warning(text) {
      events.push({ type: 'warning', text });
    },
    async confirm(box) {
      events.push({ type: 'confirm', box });
      const result = typeof answer === 'function' ? await answer() : answer;
      queueMicrotask(settle);
      return result;
    },
  };
  return {
    notifier,
    events,
    /** Resolves after the next confirm box has been answered (and its effect has run). */
    afterConfirm: async () => {
      await confirmed;
      confirmed = new Promise<void>((r) => (settle = r));
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}
