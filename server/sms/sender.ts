import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

export type SmsPurpose = 'register' | 'password';

export interface SmsMessage {
  phone: string;
  code: string;
  purpose: SmsPurpose;
  validMinutes: number;
}

/**
 * Delivers verification codes. The default writes to the server log and a development
 * mailbox file; a real SMS provider implements this same interface (see createSmsSender).
 * A throw means "not delivered": the code is then not stored and the 60 s wait not started.
 */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

interface Log {
  info(obj: object, msg?: string): void;
}

/** Development delivery: one line per code in the mailbox file, and the code in the server log. */
export class MailboxSmsSender implements SmsSender {
  constructor(private readonly mailbox: string, private readonly log: Log) {}

  async send(m: SmsMessage): Promise<void> {
    this.log.info({ phone: m.phone, purpose: m.purpose, code: m.code }, `SMS code ${m.code} for ${m.phone} (${m.purpose})`);
    await mkdir(dirname(this.mailbox), { recursive: true });
    await appendFile(this.mailbox, `${new Date().toISOString()}\t${m.phone}\t${m.purpose}\t${m.code}\tvalid ${m.validMinutes} min\n`, 'utf8');
  }
}

/**
 * The one place that chooses how codes travel. Plug a real provider in here (for
 * instance when an SMS_PROVIDER setting names one); today only the mailbox exists.
 */
export function createSmsSender(config: { smsMailbox: string }, log: Log): SmsSender {
  return new MailboxSmsSender(config.smsMailbox, log);
}
