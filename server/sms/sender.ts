import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

export type SmsPurpose = 'register' | 'password';

export interface SmsMessage {
  phone: string;
  code: string;
  purpose: SmsPurpose;
  validMinutes: number;
}

/** Why a text notice is sent; a provider may route kinds to different templates. */
export type SmsNoticeKind = 'recall' | 'alarm';

/** A text notice to a person (a recall to a customer, an alarm to the farm's on-duty contact). */
export interface SmsNotice {
  phone: string;
  kind: SmsNoticeKind;
  /** The whole text, already in the recipient's language. */
  text: string;
}

/**
 * Delivers verification codes and notices. The default writes to the server log and a
 * development mailbox file; a real SMS provider implements this same interface (see
 * createSmsSender). A throw means "not delivered": a code is then not stored and the 60 s
 * wait not started; a notice is recorded as not delivered by its caller.
 */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
  notify(notice: SmsNotice): Promise<void>;
}

interface Log {
  info(obj: object, msg?: string): void;
}

/** Mailbox lines keep one record per line: a notice's text may hold tabs or newlines. */
function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ');
}

/** Development delivery: one line per code or notice in the mailbox file, and in the server log. */
export class MailboxSmsSender implements SmsSender {
  constructor(
    private readonly mailbox: string,
    private readonly log: Log,
  ) {}

  async send(m: SmsMessage): Promise<void> {
    this.log.info({ phone: m.phone, purpose: m.purpose, code: m.code }, `SMS code ${m.code} for ${m.phone} (${m.purpose})`);
    await this.append(`${m.phone}\t${m.purpose}\t${m.code}\tvalid ${m.validMinutes} min`);
  }

  async notify(n: SmsNotice): Promise<void> {
    this.log.info({ phone: n.phone, kind: n.kind }, `SMS ${n.kind} notice for ${n.phone}`);
    await this.append(`${n.phone}\t${n.kind}\t${oneLine(n.text)}`);
  }

  private async append(line: string): Promise<void> {
    await mkdir(dirname(this.mailbox), { recursive: true });
    await appendFile(this.mailbox, `${new Date().toISOString()}\t${line}\n`, 'utf8');
  }
}

/**
 * The one place that chooses how texts travel. Plug a real provider in here (for
 * instance when an SMS_PROVIDER setting names one); today only the mailbox exists.
 */
export function createSmsSender(config: { smsMailbox: string }, log: Log): SmsSender {
  return new MailboxSmsSender(config.smsMailbox, log);
}
