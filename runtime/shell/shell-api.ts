import type { DataProvider } from '../services/contract.ts';

/** The current user's base info (spec section 3): the phone for the user menu, attr2 the logo. */
export interface BaseInfo {
  id: number | string;
  mobilePhone: string | null;
  attr2: string | null;
  city: string | null;
}

/** The `consoleConfig` call: what the console needs from the server's configuration. */
export interface ConsoleConfig {
  instructionVideoUrl: string;
  headerTitleCity: string;
  tileUrl: string;
}

export interface ChangePasswordForm {
  phone: string;
  password: string;
  code: string;
}

/** The calls the shell itself makes (spec sections 7.1 and 7.3), by name through the data provider. */
export interface ShellApi {
  baseInfo(): Promise<BaseInfo>;
  consoleConfig(): Promise<ConsoleConfig>;
  /** Unread notices of the user: status 200 and a numeric data, else the call counts as failed. */
  unreadNotices(userId: number | string): Promise<number>;
  /** Quiet: the dialog shows the server's message under the phone field itself. */
  sendChangePasswordCode(phone: string): Promise<void>;
  /** Quiet: the dialog reports 'operation successful' / 'operation failed' itself. */
  changePassword(form: ChangePasswordForm): Promise<void>;
}

export function createShellApi(data: Pick<DataProvider, 'call'>): ShellApi {
  return {
    async baseInfo() {
      const env = await data.call<Record<string, unknown>>('baseInfo');
      const d = env.data ?? {};
      return {
        id: typeof d.id === 'number' || typeof d.id === 'string' ? d.id : '',
        mobilePhone: typeof d.mobilePhone === 'string' ? d.mobilePhone : null,
        attr2: typeof d.attr2 === 'string' && d.attr2 ? d.attr2 : null,
        city: typeof d.city === 'string' ? d.city : null,
      };
    },
    async consoleConfig() {
      const env = await data.call<Partial<ConsoleConfig>>('consoleConfig', { quiet: true });
      const d = env.data ?? {};
      return {
        instructionVideoUrl: typeof d.instructionVideoUrl === 'string' ? d.instructionVideoUrl : '',
        headerTitleCity: typeof d.headerTitleCity === 'string' ? d.headerTitleCity : '',
        tileUrl: typeof d.tileUrl === 'string' ? d.tileUrl : '',
      };
    },
    async unreadNotices(userId) {
      const env = await data.call<unknown>('unreadNotices', { params: { userId }, quiet: true });
      if (env.status !== 200 || typeof env.data !== 'number' || !Number.isFinite(env.data)) throw new Error('notReadNumber: not a number');
      return env.data;
    },
    async sendChangePasswordCode(phone) {
      await data.call('sendChangePasswordCode', { params: { phone }, quiet: true });
    },
    async changePassword({ phone, password, code }) {
      await data.call('changePassword', { params: { phone, password, code }, quiet: true });
    },
  };
}
