import type { HttpClient } from '../http/client.ts';

/** The current user's base info (spec section 3): the phone for the user menu, attr2 the logo. */
export interface BaseInfo {
  id: number | string;
  mobilePhone: string | null;
  attr2: string | null;
  city: string | null;
}

/** GET /api/console/config: what the console needs from the server's configuration. */
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

/** The calls the shell itself makes (spec sections 7.1 and 7.3). */
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

export function createShellApi(http: HttpClient): ShellApi {
  return {
    async baseInfo() {
      const env = await http.get<Record<string, unknown>>('/api/admin/user/front/baseInfo');
      const d = env.data ?? {};
      return {
        id: typeof d.id === 'number' || typeof d.id === 'string' ? d.id : '',
        mobilePhone: typeof d.mobilePhone === 'string' ? d.mobilePhone : null,
        attr2: typeof d.attr2 === 'string' && d.attr2 ? d.attr2 : null,
        city: typeof d.city === 'string' ? d.city : null,
      };
    },
    async consoleConfig() {
      const env = await http.get<Partial<ConsoleConfig>>('/api/console/config', undefined, { quiet: true });
      const d = env.data ?? {};
      return {
        instructionVideoUrl: typeof d.instructionVideoUrl === 'string' ? d.instructionVideoUrl : '',
        headerTitleCity: typeof d.headerTitleCity === 'string' ? d.headerTitleCity : '',
        tileUrl: typeof d.tileUrl === 'string' ? d.tileUrl : '',
      };
    },
    async unreadNotices(userId) {
      const env = await http.get<unknown>('/api/coverfield/notice/notReadNumber', { userId }, { quiet: true });
      if (env.status !== 200 || typeof env.data !== 'number' || !Number.isFinite(env.data)) throw new Error('notReadNumber: not a number');
      return env.data;
    },
    async sendChangePasswordCode(phone) {
      await http.request({ method: 'PUT', url: '/api/admin/user/front/sms/sendChangePassword', query: { phone }, quiet: true });
    },
    async changePassword({ phone, password, code }) {
      await http.request({ method: 'POST', url: '/api/admin/user/front/changePassword', query: { phone, password, code }, quiet: true });
    },
  };
}
