/**
 * The UI effects of the error catalogue (spec section 8), kept behind this interface so
 * that the client's rules run and are tested without a browser. The console implements
 * it with antd's message and Modal (antd-notifier.tsx).
 */
export interface Notifier {
  /** An error message shown for `durationMs`; resolves when it has closed. */
  error(text: string, durationMs: number): Promise<void>;
  /** A warning message (the 40001 business refusal). */
  warning(text: string): void;
  /** A confirm box; resolves true on the OK button, false on cancel or close. */
  confirm(box: ConfirmBox): Promise<boolean>;
}

export interface ConfirmBox {
  title?: string;
  content: string;
  okText: string;
  cancelText: string;
}
